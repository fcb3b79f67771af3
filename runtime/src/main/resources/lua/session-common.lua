-- Shared by the session scripts (prepended to each of them).
-- Plan bodies are immutable and stored once, in the plans hash as b:<id>. The state hash maps plan
-- numbers to ids with `pmap`: segments "<n>:<id>" mean plans n, n+1 … have ids id, id+1 … up to
-- the next segment; without a segment a plan's id is its number. A rollback or fork restarts the
-- numbering, so a segment is added only then: pmap stays short however many plans there are.
local function plan_id(pmap, n)
  local id = n
  for from, first in string.gmatch(pmap or '', '(%d+):(%d+)') do
    from = tonumber(from)
    if from > n then break end
    id = tonumber(first) + n - from
  end
  return id
end

-- Appends to `reply` the fields p:<n> with the bodies of plans first..seq. One HMGET per 1,000 plans:
-- Lua unpacks at most about 8,000 values into one call ("too many results to unpack").
local function plan_bodies(plans, pmap, first, seq, reply)
  for from = first, seq, 1000 do
    local to = math.min(seq, from + 999)
    local ids = {}
    for n = from, to do ids[#ids + 1] = 'b:' .. plan_id(pmap, n) end
    local bodies = redis.call('HMGET', plans, unpack(ids))
    for i, body in ipairs(bodies) do
      if body then
        reply[#reply + 1] = 'p:' .. (from + i - 1)
        reply[#reply + 1] = body
      end
    end
  end
  return reply
end

-- The evicting maxmemory-policies, numbered as the detail of the reply -12 (RedisDurability.EVICTING in Java).
local EVICTING = {'allkeys-lru', 'allkeys-lfu', 'allkeys-random', 'volatile-lru', 'volatile-lfu', 'volatile-random',
  'volatile-ttl'}

-- The number of the maxmemory-policy Redis runs when it evicts (one past the list: a policy it does not name), 0
-- under noeviction. Read from INFO in the write script itself (a few microseconds, no round trip), so a policy
-- switched at runtime refuses the very next write, atomically with it. A Redis that hides INFO refuses nothing.
local function evicting()
  local info = redis.pcall('INFO', 'memory')
  if type(info) ~= 'string' then return 0 end
  local policy = string.match(info, 'maxmemory_policy:([%w%-]+)')
  if not policy or policy == 'noeviction' then return 0 end
  for i, name in ipairs(EVICTING) do
    if name == policy then return i end
  end
  return #EVICTING + 1
end

-- History and bytes live in the snap hash. Each version from 2 on has an undo record: the state fields that
-- version changed and their values before it (false: the field was absent), so a record costs what the version
-- changed, not the state's size; a past version is the current state with the records after it applied newest
-- first (session-at.lua), its version and updatedAt being its own and its replay entry's time. The records of
-- UNDO_BLOCK consecutive versions share one field, U<version / UNDO_BLOCK>: one MessagePack array of
-- version, number of pairs, pairs …, record after record. A field of its own per record (u<version>, as earlier
-- releases wrote them, still read) cost about 60 bytes of Redis' per-field overhead besides the record itself:
-- with the replay entry, a version that set a 100-byte value took 4.9x its size. Counters, in bytes
-- of field names and values: size (the state hash and the plan bodies: what the per-session cap
-- limits), log (replay entries, undo records, traces, idempotency records) and granted (what the user's
-- budget granted the session; size + log stays within it). Sessions written before undo records have
-- full checkpoints there under their version number; legacy names the last version without a record,
-- until no version of the retention window needs a checkpoint.
-- So that reading an old version does not apply every record after it, the hash also keeps checkpoints
-- c<version>: the state hash's fields and values at that version (plan bodies by id, as the state
-- holds them), MessagePack pairs. Reading v starts from the nearest checkpoint at or above v and
-- applies at most the records between them. One is tried at every multiple of checkpointEvery and
-- taken when it is at most 1/CHECKPOINT_SHARE of the bytes written since the previous one (cw: those
-- bytes, the events and plan bodies written), so checkpoints cost at most that share of what was
-- written (3: a third, which keeps the benchmark workload's session within 3x the bytes written at
-- retention 1,000); a state that is large against its writes (each step adding a new large value)
-- gets them further apart, or none.
-- cps lists their versions, oldest first; they are counted in log and trimmed with the window.

-- The bytes a stream entry holds, as XRANGE returns it.
local function entry_bytes(entry)
  local n = #entry[1]
  for _, value in ipairs(entry[2]) do n = n + #value end
  return n
end

-- A version's replay entry. Its event JSON leaves the actor out: the entry holds it as o when the actor is the
-- session's own (the snap hash's `actor`, set by the first write that names one and never changed), as e with the
-- actor apart as a otherwise, and as e alone when the write names none (actor ""). A 36-character user id, which a
-- JWT's subject usually is, in every version took a 100-byte value's session from 2.99x to 3.38x the bytes written.
-- Entries written before hold their actor in the event JSON, as e. The session's actor is not counted in log (as the
-- counters are not): it is one field of the session, not of a version. Returns the entry's fields.
local function replay_entry(snap, json, actor)
  if actor == '' then return {'e', json} end
  local own = redis.call('HGET', snap, 'actor')
  if not own then
    redis.call('HSET', snap, 'actor', actor)
    own = actor
  end
  if own == actor then return {'o', json} end
  return {'e', json, 'a', actor}
end

-- Bytes a state field takes now (0: absent), or as `pending` says an earlier operation left it.
local function field_bytes(state, pending, field)
  local known = pending[field]
  if known ~= nil then return known end
  if redis.call('HEXISTS', state, field) == 0 then return 0 end
  return #field + redis.call('HSTRLEN', state, field)
end

-- Writes state fields, keeping each changed field's value before the first change (for the undo record)
-- and the change of the state's bytes.
local function state_writer(state)
  local w = {undo = {}, seen = {}, bytes = 0}
  local function before(field)
    local old = redis.call('HGET', state, field)
    if not w.seen[field] then
      w.seen[field] = true
      w.undo[#w.undo + 1] = field
      w.undo[#w.undo + 1] = old
    end
    if old then w.bytes = w.bytes - #field - #old end
  end
  function w.put(field, value)
    before(field)
    w.bytes = w.bytes + #field + #value
    redis.call('HSET', state, field, value)
  end
  function w.del(field)
    before(field)
    redis.call('HDEL', state, field)
  end
  return w
end

-- The session's counters; a session written before them is measured once (and marked legacy when it
-- has checkpoints). Returns size, log, granted, legacy (0: none).
local function counters(state, snap, events, plans, version)
  local c = redis.call('HMGET', snap, 'size', 'log', 'granted', 'legacy')
  if c[1] then return tonumber(c[1]), tonumber(c[2]), tonumber(c[3] or '0'), tonumber(c[4] or '0') end
  local size, log = 0, 0
  for _, value in ipairs(redis.call('HGETALL', state)) do size = size + #value end
  for _, value in ipairs(redis.call('HGETALL', plans)) do size = size + #value end
  for _, entry in ipairs(redis.call('XRANGE', events, '-', '+')) do log = log + entry_bytes(entry) end
  local legacy = redis.call('HLEN', snap) > 0 and version or 0
  redis.call('HSET', snap, 'size', size, 'log', log, 'granted', 0, 'legacy', legacy)
  return size, log, 0, legacy
end

local UNDO_BLOCK = 16

-- The field of the block that holds the undo record of version v.
local function undo_block(v)
  return 'U' .. math.floor(v / UNDO_BLOCK)
end

-- The undo blocks no version of the window needs (every version in them at or below `oldest`), newest first.
local function stale_blocks(snap, oldest)
  local stale = {}
  local b = math.floor((oldest + 1) / UNDO_BLOCK) - 1
  while b >= 0 and redis.call('HEXISTS', snap, 'U' .. b) == 1 do
    stale[#stale + 1] = 'U' .. b
    b = b - 1
  end
  return stale
end

-- The checkpoint fields (c<version>) below `oldest`, oldest first: no read of the window starts from them.
local function checkpoints_below(snap, oldest)
  local below = {}
  for v in string.gmatch(redis.call('HGET', snap, 'cps') or '', '%d+') do
    if tonumber(v) >= oldest then break end
    below[#below + 1] = 'c' .. v
  end
  return below
end

-- What trimming the history to the retention window after writing `version` frees: the replay entries
-- below the window (while a legacy session may still read a checkpoint, from its base checkpoint on) and
-- the undo record the window's oldest version no longer needs. Returns bytes, first entry id kept, record.
local function trimmed(snap, events, version, every, retention, legacy)
  local oldest = math.max(1, version - retention + 1)
  local keep = oldest
  if legacy > 0 and oldest <= legacy then keep = math.floor(oldest / every) * every + 1 end
  local bytes = 0
  if keep > 1 then
    for _, entry in ipairs(redis.call('XRANGE', events, '-', '(' .. keep .. '-0')) do bytes = bytes + entry_bytes(entry) end
  end
  local record = 'u' .. oldest
  bytes = bytes + (redis.call('HEXISTS', snap, record) == 1 and #record + redis.call('HSTRLEN', snap, record) or 0)
  for _, field in ipairs(checkpoints_below(snap, oldest)) do bytes = bytes + #field + redis.call('HSTRLEN', snap, field) end
  for _, field in ipairs(stale_blocks(snap, oldest)) do bytes = bytes + #field + redis.call('HSTRLEN', snap, field) end
  return bytes, keep, record
end

-- Trims as `trimmed` measured; once no version of the window needs a checkpoint, drops them.
local function trim(snap, events, version, retention, legacy, keep, record)
  if keep > 1 then redis.call('XTRIM', events, 'MINID', keep .. '-0') end
  redis.call('HDEL', snap, record)
  local oldest = version - retention + 1
  local stale = stale_blocks(snap, oldest)
  if #stale > 0 then redis.call('HDEL', snap, unpack(stale)) end
  local below = checkpoints_below(snap, oldest)
  if #below > 0 then
    local kept = {}
    for v in string.gmatch(redis.call('HGET', snap, 'cps'), '%d+') do
      if tonumber(v) >= oldest then kept[#kept + 1] = v end
    end
    redis.call('HDEL', snap, 'cps', unpack(below))
    if #kept > 0 then redis.call('HSET', snap, 'cps', table.concat(kept, ',')) end
  end
  if legacy > 0 and version - retention + 1 > legacy then
    for _, field in ipairs(redis.call('HKEYS', snap)) do
      if string.match(field, '^%d+$') then redis.call('HDEL', snap, field) end
    end
    redis.call('HSET', snap, 'legacy', 0)
  end
end

-- The undo record of `version` (pairs field, value before) appended to its block, without version and updatedAt
-- (a read takes them from the version itself); returns the bytes the snap hash grew by.
local function store_undo(snap, version, undo)
  local field = undo_block(version)
  local old = redis.call('HGET', snap, field)
  local block = old and cmsgpack.unpack(old) or {}
  local at = #block + 2
  block[at - 1], block[at] = version, 0
  for i = 1, #undo, 2 do
    if undo[i] ~= 'version' and undo[i] ~= 'updatedAt' then
      block[#block + 1] = undo[i]
      block[#block + 1] = undo[i + 1]
    end
  end
  block[at] = (#block - at) / 2
  local packed = cmsgpack.pack(block)
  redis.call('HSET', snap, field, packed)
  return #packed - (old and #old or -#field)
end

-- The undo records of versions first..last kept in blocks: version -> its pairs.
local function undo_records(snap, first, last)
  local records = {}
  for b = math.floor(first / UNDO_BLOCK), math.floor(last / UNDO_BLOCK) do
    local packed = redis.call('HGET', snap, 'U' .. b)
    if packed then
      local block, i = cmsgpack.unpack(packed), 1
      while i <= #block do
        local v, n = block[i], block[i + 1]
        local record = {}
        for j = 1, 2 * n do record[j] = block[i + 1 + j] end
        records[v] = record
        i = i + 2 + 2 * n
      end
    end
  end
  return records
end

local CHECKPOINT_SHARE = 3

-- Bytes the checkpoint of `version` may add to log, at most: its share of what was written since the
-- previous one (with `written`, this write's bytes), when a checkpoint is tried at this version; else 0.
local function checkpoint_bound(snap, version, every, written)
  if version % every ~= 0 then return 0 end
  return #('c' .. version) + math.floor((tonumber(redis.call('HGET', snap, 'cw') or '0') + written) / CHECKPOINT_SHARE)
end

-- Counts `written` (this write's bytes) and, at a multiple of `every`, takes the checkpoint of `version`
-- when it costs at most its share of what was written since the previous one. Returns the bytes it added to log.
local function checkpoint(state, snap, version, every, written)
  written = tonumber(redis.call('HGET', snap, 'cw') or '0') + written
  if version % every == 0 then
    local packed = cmsgpack.pack(redis.call('HGETALL', state))
    if CHECKPOINT_SHARE * #packed <= written then
      local cps = redis.call('HGET', snap, 'cps')
      redis.call('HSET', snap, 'c' .. version, packed, 'cps', cps and cps .. ',' .. version or tostring(version), 'cw', 0)
      return #('c' .. version) + #packed
    end
  end
  redis.call('HSET', snap, 'cw', written)
  return 0
end
