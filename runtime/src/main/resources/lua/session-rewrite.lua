-- KEYS: state, snap, events, chat, trace, plans, idempotency, ended
-- ARGV: mode, expectedVersion, ttlMs, eventJson, checkpointEvery, retention, maxSessionBytes, grant, refuseEvicting, actor, fields..., idempotencyKey, fingerprint, result
-- ERRORS: -1 stale (detail: current), -3 ended, -4 missing, -5 exists, -6 key used, -8 archived, -9 needs bytes (detail: bytes), -10 too large (detail: bytes), -12 evicting (detail: policy)
-- Writes a whole state at once: creation, fork, rollback. The ended key is the marker set when an ended
-- session was archived and cleared.
-- Plan fields (p:<n>) are immutable bodies in the plans hash: a plan whose body the session holds
-- already under the same number (a rollback keeps the plans up to its target) keeps it, any other
-- plan gets a new body (the bodies of earlier versions stay for reads within the retention window);
-- everything else goes to the state hash. The replay entry holds the event JSON as e or o, with its actor as
-- replay_entry (session-common.lua) says, and, when the state has plans, their body ids (comma-separated, plan 1
-- first) as b: the event's state leaves their content out, so a rollback or fork does not copy plan texts
-- into the log. A rollback's undo record holds the fields it changed, and it may take a checkpoint as a step does
-- (session-common.lua).
-- mode: "create" | "rewrite"; expectedVersion: -1 for none; checkpointEvery: the checkpoint interval
-- (session-common.lua); grant: "" when not budgeted, else size + log must stay within the session's grant (on
-- "create" the bytes granted to the new session); refuseEvicting: "1" when nothing is written while Redis runs an
-- evicting maxmemory-policy (session-common.lua); actor: who writes ("" for none), which eventJson leaves out (a new
-- session's first actor becomes its own); fields: pairs (field, value) of the new state without version; idempotencyKey: "" for none; result: what to record. Returns {version} or {errorCode, detail},
-- nothing written: -6 the idempotency key was already used, -8 the id belongs to a session that ended
-- and was archived, -9 the session needs a grant of that many more bytes, -10 the state would be that
-- many bytes, over maxSessionBytes.
-- "create" is create-if-absent: an existing state (any owner, any status) is left untouched; keys
-- of the id without a state (a chat window or traces written under it) are stale and are cleared.
local state, snap, events, plans = KEYS[1], KEYS[2], KEYS[3], KEYS[6]
local idem, ikey = KEYS[7], ARGV[#ARGV - 2]
local FIELDS, last, actor = 11, #ARGV - 3, ARGV[10]
local creating, grant = ARGV[1] == 'create', ARGV[8]
local version, ids, oldPmap, oldSeq = 1, 0, '', 0
local size, log, granted, legacy = 0, 0, tonumber(grant ~= '' and grant or '0'), 0
local old = {}
if ikey ~= '' and redis.call('HEXISTS', idem, ikey) == 1 then return {-6, 0} end
if ARGV[9] == '1' then
  local policy = evicting()
  if policy > 0 then return {-12, policy} end
end
if creating then
  if redis.call('EXISTS', state) == 1 then return {-5, 0} end
  if redis.call('EXISTS', KEYS[8]) == 1 then return {-8, 0} end
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
  size, log, granted, legacy = counters(state, snap, events, plans, current)
  local all = redis.call('HGETALL', state)
  for i = 1, #all, 2 do old[all[i]] = all[i + 1] end
end
local keep = {sessionId = true, userId = true, createdAt = true, forkedFrom = true}

-- what the write will take: plan bodies it adds, the state's bytes before and after, what it changes
local seq, bodies, given = 0, {}, {version = tostring(version)}
for i = FIELDS, last, 2 do
  local field = ARGV[i]
  if string.sub(field, 1, 2) == 'p:' then
    local n = tonumber(string.sub(field, 3))
    bodies[n] = ARGV[i + 1]
    if n > seq then seq = n end
  else
    given[field] = ARGV[i + 1]
  end
end
local next, pmap, listed, fresh, prevN, prevId = ids, {}, {}, {}, nil, nil
local freshBytes = 0
for n = 1, seq do
  local body = bodies[n]
  if body then
    local id = nil
    if n <= oldSeq then
      local was = plan_id(oldPmap, n)
      if redis.call('HGET', plans, 'b:' .. was) == body then id = was end
    end
    if not id then
      next = next + 1
      id = next
      fresh[#fresh + 1] = id
      freshBytes = freshBytes + #('b:' .. id) + #body
    end
    bodies[n] = id .. '\0' .. body
    if prevN == nil or id ~= prevId + (n - prevN) then pmap[#pmap + 1] = n .. ':' .. id end
    prevN, prevId = n, id
    listed[#listed + 1] = id
  end
end
given.planIds = tostring(next)
-- without a segment a plan's id is its number
if #pmap > 1 or (#pmap == 1 and pmap[1] ~= '1:1') then given.pmap = table.concat(pmap, ',') end
local before, after, changed = 0, 0, 0
for field, value in pairs(old) do
  before = before + #field + #value
  if keep[field] and given[field] == nil then given[field] = value end
  if given[field] ~= value then changed = changed + #field + #value + 4 end
end
for field, value in pairs(given) do
  after = after + #field + #value
  if old[field] == nil then changed = changed + #field + 4 end
end
local every, freed, keepFrom, record = tonumber(ARGV[5]), 0, 1, 'u0'
if not creating then freed, keepFrom, record = trimmed(snap, events, version, every, tonumber(ARGV[6]), legacy) end
-- what the write writes, as checkpoints count it: its event and the plan bodies it adds
local written = #ARGV[4] + freshBytes
local newSize = size - before + after + freshBytes
if newSize > tonumber(ARGV[7]) and newSize > size then return {-10, newSize} end
local logGrow = #ARGV[4] + 2 * #actor + 16 * #listed + 72 + (creating and 0 or changed)
  + (ikey ~= '' and #ikey + #ARGV[#ARGV - 1] + #ARGV[#ARGV] + 24 or 0)
  + (creating and 0 or checkpoint_bound(snap, version, every, written))
local footprint = newSize + log + logGrow - freed
if grant ~= '' and footprint > granted and (creating or footprint > size + log) then return {-9, footprint - granted} end

-- the write
if creating then
  redis.call('DEL', unpack(KEYS, 2, 7))
else
  for field in pairs(old) do
    if given[field] == nil then redis.call('HDEL', state, field) end
  end
end
for field, value in pairs(given) do
  if old[field] ~= value then redis.call('HSET', state, field, value) end
end
for n = 1, seq do
  local body = bodies[n]
  if body then
    local cut = string.find(body, '\0', 1, true)
    local id = string.sub(body, 1, cut - 1)
    if fresh[1] and tonumber(id) >= fresh[1] then redis.call('HSET', plans, 'b:' .. id, string.sub(body, cut + 1)) end
  end
end
if not creating then
  local undo = {}
  for field, value in pairs(old) do
    if given[field] ~= value then
      undo[#undo + 1] = field
      undo[#undo + 1] = value
    end
  end
  for field in pairs(given) do
    if old[field] == nil then
      undo[#undo + 1] = field
      undo[#undo + 1] = false
    end
  end
  log = log + store_undo(snap, version, undo)
end
size = size - before + after + freshBytes
local entry = replay_entry(snap, ARGV[4], actor)
if #listed > 0 then
  entry[#entry + 1] = 'b'
  entry[#entry + 1] = table.concat(listed, ',')
end
local id = redis.call('XADD', events, version .. '-0', unpack(entry))
log = log + entry_bytes({id, entry}) - freed + checkpoint(state, snap, version, every, written)
if not creating then trim(snap, events, version, tonumber(ARGV[6]), legacy, keepFrom, record) end
if ikey ~= '' then
  local value = ARGV[#ARGV - 1] .. '\n' .. ARGV[#ARGV]
  redis.call('HSET', idem, ikey, value)
  log = log + #ikey + #value
end
redis.call('HSET', snap, 'size', size, 'log', log, 'granted', granted, 'legacy', legacy)
for i = 1, 7 do redis.call('PEXPIRE', KEYS[i], ARGV[3]) end
return {version}
