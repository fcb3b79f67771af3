-- Applies one step to a session atomically. KEYS: state, snap, events, chat, trace, plans, idempotency.
-- ARGV: expectedVersion (-1: none), ttlMs, eventJson, checkpointEvery, retention, updatedAtMs,
-- owner ("" for any), then triples (op, field, value): S set, D delete, O ordered set (value gets "<version>.<n>|"),
-- P append plan (field: evaluation JSON or ""), E evaluate plan <field>;
-- last three: idempotency key ("" for none), request fingerprint, recorded result ("" records the new version).
-- Returns {newVersion} or {errorCode, detail}: -1 stale (current), -2 no such plan (plan), -3 ended, -4 missing,
-- -6 the idempotency key was already used (nothing written; its record holds the first result).
local state, snap, events, plans = KEYS[1], KEYS[2], KEYS[3], KEYS[6]
local idem, ikey = KEYS[7], ARGV[#ARGV - 2]
local last = #ARGV - 3
local current = redis.call('HGET', state, 'version')
if not current then return {-4, 0} end
if ARGV[7] ~= '' and redis.call('HGET', state, 'userId') ~= ARGV[7] then return {-4, 0} end
if ikey ~= '' and redis.call('HEXISTS', idem, ikey) == 1 then return {-6, 0} end
current = tonumber(current)
if redis.call('HGET', state, 'status') == 'ENDED' then return {-3, current} end
local expected = tonumber(ARGV[1])
if expected >= 0 and expected ~= current then return {-1, current} end
for i = 8, last, 3 do
  if ARGV[i] == 'E' and redis.call('HEXISTS', plans, 'p:' .. ARGV[i + 1]) == 0 then
    return {-2, tonumber(ARGV[i + 1])}
  end
end
local version = current + 1
local n = 0
for i = 8, last, 3 do
  local op, field, value = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  if op == 'S' then
    redis.call('HSET', state, field, value)
  elseif op == 'D' then
    redis.call('HDEL', state, field)
  elseif op == 'O' then
    n = n + 1
    redis.call('HSET', state, field, version .. '.' .. n .. '|' .. value)
  elseif op == 'P' then
    local plan = redis.call('HINCRBY', state, 'planSeq', 1)
    redis.call('HSET', plans, 'p:' .. plan, value)
    if field ~= '' then redis.call('HSET', plans, 'e:' .. plan, field) end
  elseif op == 'E' then
    redis.call('HSET', plans, 'e:' .. field, value)
  end
end
redis.call('HSET', state, 'version', version, 'updatedAt', ARGV[6])
redis.call('XADD', events, version .. '-0', 'e', ARGV[3])
local every, retention = tonumber(ARGV[4]), tonumber(ARGV[5])
if version % every == 0 then
  local fields = {}
  for _, key in ipairs({state, plans}) do
    local all = redis.call('HGETALL', key)
    for i = 1, #all, 2 do fields[all[i]] = all[i + 1] end
  end
  redis.call('HSET', snap, version, cjson.encode(fields))
  local expired = version - every * (math.floor(retention / every) + 1)
  if expired > 0 then redis.call('HDEL', snap, expired) end
end
if ikey ~= '' then
  local result = ARGV[#ARGV] ~= '' and ARGV[#ARGV] or tostring(version)
  redis.call('HSET', idem, ikey, ARGV[#ARGV - 1] .. '\n' .. result)
end
for i = 1, #KEYS do redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
return {version}
