-- Applies one step to a session atomically. KEYS: state, snap, events, chat, trace, plans, idempotency.
-- ARGV: expectedVersion (-1: none), ttlMs, eventJson, checkpointEvery, retention, updatedAtMs,
-- owner ("" for any), then triples (op, field, value): S set, D delete, O ordered set (value gets "<version>.<n>|"),
-- P append plan (field: evaluation JSON or ""), E evaluate plan <field>, T the step's trace (field: how many
-- versions of traces to keep, value: its JSON; stored as the new version's trace);
-- last three: idempotency key ("" for none), request fingerprint, recorded result ("" records the new version).
-- The replay entry (id <version>-0) holds the event JSON as e and, when the step added a plan, the
-- plan's body id as p: the event leaves the content out, so a plan is stored once.
-- Returns {newVersion} or {errorCode, detail}: -1 stale (current), -2 no such plan (plan), -3 ended, -4 missing,
-- -6 the idempotency key was already used (nothing written; its record holds the first result).
local state, snap, events, plans = KEYS[1], KEYS[2], KEYS[3], KEYS[6]
local idem, ikey = KEYS[7], ARGV[#ARGV - 2]
local OPS, last = 8, #ARGV - 3

-- guards: nothing is written when one of them answers
local head = redis.call('HMGET', state, 'version', 'userId', 'status', 'planSeq', 'pmap')
if not head[1] then return {-4, 0} end
if ARGV[7] ~= '' and head[2] ~= ARGV[7] then return {-4, 0} end
if ikey ~= '' and redis.call('HEXISTS', idem, ikey) == 1 then return {-6, 0} end
local current = tonumber(head[1])
if head[3] == 'ENDED' then return {-3, current} end
local expected = tonumber(ARGV[1])
if expected >= 0 and expected ~= current then return {-1, current} end
local planSeq, pmap = tonumber(head[4] or '0'), head[5] or ''
for i = OPS, last, 3 do
  if ARGV[i] == 'E' then
    local n = tonumber(ARGV[i + 1])
    if n < 1 or n > planSeq then return {-2, n} end
  end
end

-- the write
local version = current + 1
local n, added = 0, nil
for i = OPS, last, 3 do
  local op, field, value = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  if op == 'S' then
    redis.call('HSET', state, field, value)
  elseif op == 'D' then
    redis.call('HDEL', state, field)
  elseif op == 'O' then
    n = n + 1
    redis.call('HSET', state, field, version .. '.' .. n .. '|' .. value)
  elseif op == 'P' then
    local id = redis.call('HINCRBY', state, 'planIds', 1)
    planSeq = redis.call('HINCRBY', state, 'planSeq', 1)
    redis.call('HSET', plans, 'b:' .. id, value)
    added = id
    if plan_id(pmap, planSeq) ~= id then
      pmap = (pmap == '' and '' or pmap .. ',') .. planSeq .. ':' .. id
      redis.call('HSET', state, 'pmap', pmap)
    end
    if field ~= '' then redis.call('HSET', state, 'e:' .. planSeq, field) end
  elseif op == 'E' then
    redis.call('HSET', state, 'e:' .. field, value)
  elseif op == 'T' then
    -- once the hash holds 64 more traces than retained, one sweep drops every trace older than the
    -- window (only some versions have one, so deleting version - retention alone would miss most)
    local trace, retention = KEYS[5], tonumber(field)
    redis.call('HSET', trace, version, value)
    local expired = version - retention
    if expired > 0 and redis.call('HLEN', trace) > retention + 64 then
      for _, v in ipairs(redis.call('HKEYS', trace)) do
        if tonumber(v) <= expired then redis.call('HDEL', trace, v) end
      end
    end
  end
end
redis.call('HSET', state, 'version', version, 'updatedAt', ARGV[6])
-- the log entry names the new plan's body (its content is not in the event: plans are stored once)
if added then
  redis.call('XADD', events, version .. '-0', 'e', ARGV[3], 'p', added)
else
  redis.call('XADD', events, version .. '-0', 'e', ARGV[3])
end
checkpoint(state, snap, events, version, tonumber(ARGV[4]), tonumber(ARGV[5]))
if ikey ~= '' then
  local result = ARGV[#ARGV] ~= '' and ARGV[#ARGV] or tostring(version)
  redis.call('HSET', idem, ikey, ARGV[#ARGV - 1] .. '\n' .. result)
end
for i = 1, #KEYS do redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
return {version}
