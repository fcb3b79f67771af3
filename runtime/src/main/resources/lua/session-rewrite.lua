-- Writes a whole state at once: creation, fork, rollback. KEYS: state, snap, events, chat, trace, plans,
-- idempotency.
-- Plan fields (p:<n>, e:<n>) go to the plans hash, everything else to the state hash.
-- ARGV: mode ("create" | "rewrite"), expectedVersion (-1: none), ttlMs, eventJson, then pairs
-- (field, value) of the new state without version; last three: idempotency key ("" for none), request
-- fingerprint, result to record. Returns {version} or {errorCode, detail}:
-- -1 stale (current), -3 ended, -4 missing, -5 exists, -6 the idempotency key was already used (nothing written).
-- "create" is create-if-absent: an existing state (any owner, any status) is left untouched; keys
-- of the id without a state (a chat window or traces written under it) are stale and are cleared.
local state, events, plans = KEYS[1], KEYS[3], KEYS[6]
local idem, ikey = KEYS[7], ARGV[#ARGV - 2]
local last = #ARGV - 3
local version = 1
if ikey ~= '' and redis.call('HEXISTS', idem, ikey) == 1 then return {-6, 0} end
if ARGV[1] == 'create' then
  if redis.call('EXISTS', state) == 1 then return {-5, 0} end
  redis.call('DEL', unpack(KEYS, 2))
else
  local current = redis.call('HGET', state, 'version')
  if not current then return {-4, 0} end
  current = tonumber(current)
  if redis.call('HGET', state, 'status') == 'ENDED' then return {-3, current} end
  local expected = tonumber(ARGV[2])
  if expected >= 0 and expected ~= current then return {-1, current} end
  version = current + 1
  local keep = {sessionId = true, userId = true, createdAt = true, forkedFrom = true}
  for _, field in ipairs(redis.call('HKEYS', state)) do
    if not keep[field] then redis.call('HDEL', state, field) end
  end
  redis.call('DEL', plans)
end
for i = 5, last, 2 do
  local prefix = string.sub(ARGV[i], 1, 2)
  local target = (prefix == 'p:' or prefix == 'e:') and plans or state
  redis.call('HSET', target, ARGV[i], ARGV[i + 1])
end
redis.call('HSET', state, 'version', version)
redis.call('XADD', events, version .. '-0', 'e', ARGV[4])
if ikey ~= '' then redis.call('HSET', idem, ikey, ARGV[#ARGV - 1] .. '\n' .. ARGV[#ARGV]) end
for i = 1, #KEYS do redis.call('PEXPIRE', KEYS[i], ARGV[3]) end
return {version}
