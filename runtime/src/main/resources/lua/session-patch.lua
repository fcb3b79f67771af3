-- KEYS: state, snap, events, chat, trace, plans, idempotency
-- ARGV: expectedVersion, ttlMs, eventJson, checkpointEvery, retention, updatedAtMs, owner, maxSessionBytes, budgeted, refuseEvicting, actor, ops..., idempotencyKey, fingerprint, result
-- ERRORS: -1 stale (detail: current), -2 no such plan (detail: plan), -3 ended, -4 missing, -6 key used, -9 needs bytes (detail: bytes), -10 too large (detail: bytes), -12 evicting (detail: policy)
-- Applies one step to a session atomically. expectedVersion: -1 for none; checkpointEvery: the checkpoint interval
-- (session-common.lua); owner: "" for any; budgeted: "1" when size + log must stay within
-- the bytes the user's budget granted; refuseEvicting: "1" when nothing is written while Redis runs an evicting
-- maxmemory-policy (session-common.lua); actor: who writes ("" for none), which eventJson leaves out; ops: triples
-- (op, field, value): S set, D delete, O ordered set (value gets "<version>.<n>|"), P append plan (field: evaluation
-- JSON or ""), E evaluate plan <field>, T the step's trace (field: how many versions of traces to keep, value: its
-- JSON; stored as the new version's trace); idempotencyKey: "" for none; result: what to record ("" records the new
-- version).
-- The replay entry (id <version>-0) holds the event JSON as e or o, with its actor as replay_entry (session-common.lua)
-- says, and, when the step added a plan, the plan's body id as p: the event leaves the content out, so a plan is
-- stored once. The version's undo record holds what it changed; at a multiple of checkpointEvery a checkpoint may be
-- taken (session-common.lua).
-- Returns {newVersion} or {errorCode, detail}, nothing written: -6 the idempotency key was already used (its
-- record holds the first result), -9 the session needs a grant of that many more bytes from its user's
-- budget, -10 the state would be that many bytes, over maxSessionBytes.
local state, snap, events, plans = KEYS[1], KEYS[2], KEYS[3], KEYS[6]
local idem, ikey = KEYS[7], ARGV[#ARGV - 2]
local OPS, last, actor = 12, #ARGV - 3, ARGV[11]

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
if ARGV[10] == '1' then
  local policy = evicting()
  if policy > 0 then return {-12, policy} end
end

-- what the write will take: nothing is written when the state would pass the cap or the session its grant
local version = current + 1
local every, retention = tonumber(ARGV[4]), tonumber(ARGV[5])
local size, log, granted, legacy = counters(state, snap, events, plans, current)
local pending, grow, logGrow, n = {}, 0, 0, 0
-- what the step writes, as checkpoints count it: its event and the plan bodies it adds
local written = #ARGV[3]
local function change(field, bytes)
  local was = field_bytes(state, pending, field)
  grow = grow + bytes - was
  logGrow = logGrow + was + 4
  pending[field] = bytes
end
for i = OPS, last, 3 do
  local op, field, value = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  if op == 'S' then
    change(field, #field + #value)
  elseif op == 'D' then
    change(field, 0)
  elseif op == 'O' then
    n = n + 1
    change(field, #field + #(version .. '.' .. n .. '|') + #value)
  elseif op == 'P' then
    planSeq = planSeq + 1
    written = written + #value
    grow = grow + #('b:' .. planSeq) + #value + 24
    logGrow = logGrow + 48
    if field ~= '' then change('e:' .. planSeq, #('e:' .. planSeq) + #field) end
  elseif op == 'E' then
    change('e:' .. field, #('e:' .. field) + #value)
  elseif op == 'T' then
    logGrow = logGrow + #tostring(version) + #value
  end
end
logGrow = logGrow + #ARGV[3] + 2 * #actor + 104 + (ikey ~= '' and #ikey + #ARGV[#ARGV - 1] + #ARGV[#ARGV] + 24 or 0)
  + checkpoint_bound(snap, version, every, written)
local freed, keep, record = trimmed(snap, events, version, every, retention, legacy)
if grow > 0 and size + grow > tonumber(ARGV[8]) then return {-10, size + grow} end
local footprint = size + grow + log + logGrow - freed
-- a write that does not grow the session needs no grant (a session over its grant can still shrink)
if ARGV[9] == '1' and footprint > granted and grow + logGrow > freed then return {-9, footprint - granted} end

-- the write
planSeq = tonumber(head[4] or '0')
local w = state_writer(state)
local n, added = 0, nil
for i = OPS, last, 3 do
  local op, field, value = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  if op == 'S' then
    w.put(field, value)
  elseif op == 'D' then
    w.del(field)
  elseif op == 'O' then
    n = n + 1
    w.put(field, version .. '.' .. n .. '|' .. value)
  elseif op == 'P' then
    local id = tonumber(redis.call('HGET', state, 'planIds') or '0') + 1
    planSeq = planSeq + 1
    w.put('planIds', tostring(id))
    w.put('planSeq', tostring(planSeq))
    redis.call('HSET', plans, 'b:' .. id, value)
    size = size + #('b:' .. id) + #value
    added = id
    if plan_id(pmap, planSeq) ~= id then
      pmap = (pmap == '' and '' or pmap .. ',') .. planSeq .. ':' .. id
      w.put('pmap', pmap)
    end
    if field ~= '' then w.put('e:' .. planSeq, field) end
  elseif op == 'E' then
    w.put('e:' .. field, value)
  elseif op == 'T' then
    -- once the hash holds 64 more traces than retained, one sweep drops every trace older than the
    -- window (only some versions have one, so deleting version - retention alone would miss most)
    local trace, kept = KEYS[5], tonumber(field)
    local was = redis.call('HSTRLEN', trace, version)
    redis.call('HSET', trace, version, value)
    log = log + #value - was + (was > 0 and 0 or #tostring(version))
    local expired = version - kept
    if expired > 0 and redis.call('HLEN', trace) > kept + 64 then
      for _, v in ipairs(redis.call('HKEYS', trace)) do
        if tonumber(v) <= expired then
          log = log - #v - redis.call('HSTRLEN', trace, v)
          redis.call('HDEL', trace, v)
        end
      end
    end
  end
end
w.put('version', tostring(version))
w.put('updatedAt', ARGV[6])
size = size + w.bytes
log = log + store_undo(snap, version, w.undo)
-- the log entry names the new plan's body (its content is not in the event: plans are stored once)
local entry = replay_entry(snap, ARGV[3], actor)
if added then
  entry[#entry + 1] = 'p'
  entry[#entry + 1] = tostring(added)
end
local id = redis.call('XADD', events, version .. '-0', unpack(entry))
log = log + entry_bytes({id, entry}) - freed + checkpoint(state, snap, version, every, written)
trim(snap, events, version, retention, legacy, keep, record)
if ikey ~= '' then
  local result = ARGV[#ARGV] ~= '' and ARGV[#ARGV] or tostring(version)
  local value = ARGV[#ARGV - 1] .. '\n' .. result
  redis.call('HSET', idem, ikey, value)
  log = log + #ikey + #value
end
redis.call('HSET', snap, 'size', size, 'log', log)
for i = 1, #KEYS do redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
return {version}
