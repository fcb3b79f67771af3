-- KEYS: state, snap, events, plans
-- ARGV: version, checkpointEvery, retention, latestPlans
-- ERRORS: -4 missing, -11 no such version (detail: current), -7 gone (detail: oldest)
-- Reads a past version in one round trip: the nearest checkpoint at or above it (else the current state)
-- with the undo records of the versions between them (in their blocks) applied (session-common.lua), so a read applies
-- about checkpointEvery records however old the version, with the bodies of its plans; for a session written before undo
-- records, the nearest checkpoint at or below it (with the bodies of its plans) and the replay entries after it.
-- latestPlans: how many of the newest plan versions to read (-1: all).
-- Returns {0, current, {fields …}, {replay entries …}, {body id, plan body …}} (the version's fields and no
-- entries, or a checkpoint's fields and the entries after it, with the bodies of
-- the plans the entries added or rewrote, which their events refer to by id: p and b) (no checkpoint below the first
-- interval: empty fields, entries from version 1; the version itself is current: the state's fields,
-- no entries) or {errorCode, detail} (ERRORS, ScriptReply in Java).
local state, snap, events, plans = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local current = redis.call('HGET', state, 'version')
if not current then return {-4, 0} end
current = tonumber(current)
local version, every, retention, latest = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
if version < 1 or version > current then return {-11, current} end
local oldest = math.max(1, current - retention + 1)
if version < oldest then return {-7, oldest} end
local base, entries = {}, {}
if version == current then
  base = redis.call('HGETALL', state)
else
  -- the nearest checkpoint at or above the version, else the current state, with the undo records
  -- between it and the version applied, newest first
  local from, now = current, nil
  for v in string.gmatch(redis.call('HGET', snap, 'cps') or '', '%d+') do
    v = tonumber(v)
    if v >= version then
      local packed = redis.call('HGET', snap, 'c' .. v)
      if packed then from, now = v, cmsgpack.unpack(packed) end
      break
    end
  end
  -- the records in their blocks (sessions written before blocks: u<version>); version and updatedAt are the
  -- version's own and its replay entry's time
  local records = undo_records(snap, version + 1, from)
  local before, complete = {}, true
  for v = from, version + 1, -1 do
    local record = records[v]
    if not record then
      local packed = redis.call('HGET', snap, 'u' .. v)
      record = packed and cmsgpack.unpack(packed)
    end
    if not record then
      complete = false
      break
    end
    for i = 1, #record, 2 do before[record[i]] = record[i + 1] end
  end
  if complete and from > version then
    -- a version whose entry is gone, or whose event has its time as ISO-8601 text (written by an earlier release),
    -- is replayed from the log instead (which finds it gone when the log no longer holds it)
    local entry = redis.call('XRANGE', events, version .. '-0', version .. '-0')[1]
    -- a sealed event (encryption at rest) is led by its time, clear: <epoch ms in base 36>\2…
    local at = entry and (entry[2][1] == 'e' or entry[2][1] == 'o') and entry[2][2]
    if at then
      local sealed = string.match(at, '^(%w+)\2')
      at = sealed and string.format('%.0f', tonumber(sealed, 36)) or string.match(at, '"at":%s*(%d+)')
    end
    if at then
      before['version'] = tostring(version)
      before['updatedAt'] = at
    else
      complete = false
    end
  end
  if complete then
    now = now or redis.call('HGETALL', state)
    for i = 1, #now, 2 do
      local field, value = now[i], before[now[i]]
      if value == nil then
        base[#base + 1] = field
        base[#base + 1] = now[i + 1]
      end
    end
    for field, value in pairs(before) do
      if value then
        base[#base + 1] = field
        base[#base + 1] = value
      end
    end
  else
    -- a session written before undo records: its nearest checkpoint and the replay entries after it
    local cp = math.floor(version / every) * every
    -- a session written under another checkpoint-every setting may lack this checkpoint: take an older one
    while cp >= 1 do
      local packed = redis.call('HGET', snap, cp)
      if packed then
        base = cmsgpack.unpack(packed)
        break
      end
      cp = cp - every
    end
    if cp < 1 then cp = 0 end
    entries = redis.call('XRANGE', events, (cp + 1) .. '-0', version .. '-0')
    -- every version after the checkpoint must still be in the log, or the rebuild would be wrong
    if #entries ~= version - cp then return {-7, oldest} end
  end
end
local seq, pmap = 0, ''
for i = 1, #base, 2 do
  if base[i] == 'planSeq' then seq = tonumber(base[i + 1]) elseif base[i] == 'pmap' then pmap = base[i + 1] end
end
plan_bodies(plans, pmap, latest < 0 and 1 or math.max(1, seq - latest + 1), seq, base)
local added, seen = {}, {}
local function add(id)
  if seen[id] then return end
  seen[id] = true
  added[#added + 1] = id
  added[#added + 1] = redis.call('HGET', plans, 'b:' .. id)
end
for _, entry in ipairs(entries) do
  local f = entry[2]
  for i = 3, #f, 2 do
    if f[i] == 'p' then
      add(f[i + 1])
    elseif f[i] == 'b' then
      for id in string.gmatch(f[i + 1], '%d+') do add(id) end
    end
  end
end
return {0, current, base, entries, added}
