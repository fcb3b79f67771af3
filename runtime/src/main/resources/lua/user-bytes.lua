-- KEYS: bytes
-- ARGV: op, sessionId, bytes, budget, ttlMs
-- A user's byte budget: a hash of session id → bytes granted to the session, and #total, their sum
-- (every key in the user's slot, so it stays valid on Redis Cluster). op "grant": adds the bytes to the session's grant when
-- the sum stays within the budget; "return": takes them back (a write that used them never happened);
-- "release": drops the session's grant (the session is gone). Reply: {1 done | 0 over the budget, sum}.
local key, op, id, bytes = KEYS[1], ARGV[1], ARGV[2], tonumber(ARGV[3])
local total = tonumber(redis.call('HGET', key, '#total') or '0')
if op == 'release' then
  bytes = tonumber(redis.call('HGET', key, id) or '0')
  redis.call('HDEL', key, id)
  bytes = -bytes
elseif op == 'return' then
  bytes = -math.min(bytes, tonumber(redis.call('HGET', key, id) or '0'))
  if redis.call('HINCRBY', key, id, bytes) <= 0 then redis.call('HDEL', key, id) end
else
  if total + bytes > tonumber(ARGV[4]) then return {0, total} end
  redis.call('HINCRBY', key, id, bytes)
end
if bytes == 0 then return {1, total} end
total = redis.call('HINCRBY', key, '#total', bytes)
redis.call('PEXPIRE', key, ARGV[5])
return {1, total}
