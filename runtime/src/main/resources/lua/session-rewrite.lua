-- Writes a whole state at once: creation, fork, rollback. KEYS: state, snap, events, chat, trace, plans,
-- idempotency, ended marker (set when an ended session was archived and cleared).
-- Plan fields (p:<n>) are immutable bodies in the plans hash: a plan whose body the session holds
-- already under the same number (a rollback keeps the plans up to its target) keeps it, any other
-- plan gets a new body (the bodies of earlier versions stay for reads within the retention window);
-- everything else goes to the state hash. The replay entry holds the event JSON as e and, when the
-- state has plans, their body ids (comma-separated, plan 1 first) as b: the event's state leaves
-- their content out, so a rollback or fork does not copy plan texts into the log.
-- ARGV: mode ("create" | "rewrite"), expectedVersion (-1: none), ttlMs, eventJson, checkpointEvery,
-- retention, then pairs (field, value) of the new state without version; last three: idempotency key
-- ("" for none), request fingerprint, result to record. Returns {version} or {errorCode, detail}:
-- -1 stale (current), -3 ended, -4 missing, -5 exists, -6 the idempotency key was already used, -8 the id
-- belongs to a session that ended and was archived (nothing written).
-- "create" is create-if-absent: an existing state (any owner, any status) is left untouched; keys
-- of the id without a state (a chat window or traces written under it) are stale and are cleared.
local state, snap, events, plans = KEYS[1], KEYS[2], KEYS[3], KEYS[6]
local idem, ikey = KEYS[7], ARGV[#ARGV - 2]
local FIELDS, last = 7, #ARGV - 3
local version, ids, oldPmap, oldSeq = 1, 0, '', 0
if ikey ~= '' and redis.call('HEXISTS', idem, ikey) == 1 then return {-6, 0} end
if ARGV[1] == 'create' then
  if redis.call('EXISTS', state) == 1 then return {-5, 0} end
  if redis.call('EXISTS', KEYS[8]) == 1 then return {-8, 0} end
  redis.call('DEL', unpack(KEYS, 2, 7))
else
  local head = redis.call('HMGET', state, 'version', 'status', 'planIds', 'pmap', 'planSeq')
  if not head[1] then return {-4, 0} end
  local current = tonumber(head[1])
  if head[2] == 'ENDED' then return {-3, current} end
  local expected = tonumber(ARGV[2])
  if expected >= 0 and expected ~= current then return {-1, current} end
  version = current + 1
  ids = tonumber(head[3] or head[5] or '0')
  oldPmap, oldSeq = head[4] or '', tonumber(head[5] or '0')
  local keep = {sessionId = true, userId = true, createdAt = true, forkedFrom = true}
  for _, field in ipairs(redis.call('HKEYS', state)) do
    if not keep[field] then redis.call('HDEL', state, field) end
  end
end
local seq, bodies = 0, {}
for i = FIELDS, last, 2 do
  local field = ARGV[i]
  if string.sub(field, 1, 2) == 'p:' then
    local n = tonumber(string.sub(field, 3))
    bodies[n] = ARGV[i + 1]
    if n > seq then seq = n end
  else
    redis.call('HSET', state, field, ARGV[i + 1])
  end
end
local next, pmap, listed, prevN, prevId = ids, {}, {}, nil, nil
for n = 1, seq do
  local body = bodies[n]
  if body then
    local id = nil
    if n <= oldSeq then
      local old = plan_id(oldPmap, n)
      if redis.call('HGET', plans, 'b:' .. old) == body then id = old end
    end
    if not id then
      next = next + 1
      id = next
      redis.call('HSET', plans, 'b:' .. id, body)
    end
    if prevN == nil or id ~= prevId + (n - prevN) then pmap[#pmap + 1] = n .. ':' .. id end
    prevN, prevId = n, id
    listed[#listed + 1] = id
  end
end
redis.call('HSET', state, 'version', version, 'planIds', next)
-- without a segment a plan's id is its number
if #pmap > 1 or (#pmap == 1 and pmap[1] ~= '1:1') then redis.call('HSET', state, 'pmap', table.concat(pmap, ',')) end
if #listed > 0 then
  redis.call('XADD', events, version .. '-0', 'e', ARGV[4], 'b', table.concat(listed, ','))
else
  redis.call('XADD', events, version .. '-0', 'e', ARGV[4])
end
checkpoint(state, snap, events, version, tonumber(ARGV[5]), tonumber(ARGV[6]))
if ikey ~= '' then redis.call('HSET', idem, ikey, ARGV[#ARGV - 1] .. '\n' .. ARGV[#ARGV]) end
for i = 1, 7 do redis.call('PEXPIRE', KEYS[i], ARGV[3]) end
return {version}
