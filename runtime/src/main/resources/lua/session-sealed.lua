-- KEYS: state, snap, events, chat, trace, plans, idempotency
-- ARGV: mode, pairs...
-- The sealed values of one session (encryption at rest), which only Java can open: mode "list" answers every distinct
-- stored value that holds a sealed text (its key family, the state field it belongs to or its own field, and the value),
-- wherever it is: a hash's values, the replay entries, and inside the MessagePack of undo-record blocks and checkpoints;
-- mode "replace" swaps each stored value equal to a pair's first for its second, in all those places, atomically (the
-- replay log is written again under the same ids, as session-scrub.lua does). Versions, counters and TTLs are left
-- alone. Returns the list (family, field, value …), or the number of replacements.
local mode = ARGV[1]
local SEALED = '\2r'
local counters = { size = true, log = true, granted = true, legacy = true, cw = true, cps = true, actor = true }
local families = { 'state', 'snap', 'events', 'chats', 'trace', 'plans', 'idem' }
local found, seen, map, hits = {}, {}, {}, 0
for i = 2, #ARGV, 2 do map[ARGV[i]] = ARGV[i + 1] end

local function sealed(s)
  return type(s) == 'string' and string.find(s, SEALED, 1, true) ~= nil
end

local function note(family, field, value)
  if sealed(value) and not seen[value] then
    seen[value] = true
    found[#found + 1] = family
    found[#found + 1] = field
    found[#found + 1] = value
  end
end

local function swap(s)
  local to = map[s]
  if to then
    hits = hits + 1
    return to
  end
  return s
end

-- the state field of each value packed in a snap field: an undo block is version, count, pairs …, record after
-- record; a checkpoint is pairs
local function packed(field, value)
  local items = cmsgpack.unpack(value)
  local changed = false
  local function visit(j)
    if mode == 'list' then
      note('state', items[j - 1], items[j])
    elseif sealed(items[j]) then
      local to = swap(items[j])
      if to ~= items[j] then items[j], changed = to, true end
    end
  end
  if string.sub(field, 1, 1) == 'U' then
    local i = 1
    while i <= #items do
      local n = items[i + 1]
      for p = 1, n do visit(i + 2 * p + 1) end
      i = i + 2 + 2 * n
    end
  elseif string.match(field, '^c%d+$') then
    for j = 2, #items, 2 do visit(j) end
  end
  if changed then return cmsgpack.pack(items) end
  return value
end

local function hash(key, family)
  local all = redis.call('HGETALL', key)
  for i = 1, #all, 2 do
    local field, value = all[i], all[i + 1]
    if family == 'snap' then
      if not counters[field] and (string.sub(field, 1, 1) == 'U' or string.match(field, '^c%d+$')) then
        local to = packed(field, value)
        if to ~= value then redis.call('HSET', key, field, to) end
      end
    elseif mode == 'list' then
      note(family, field, value)
    elseif sealed(value) then
      local to = swap(value)
      if to ~= value then redis.call('HSET', key, field, to) end
    end
  end
end

local function stream(key)
  local entries = redis.call('XRANGE', key, '-', '+')
  local before = hits
  for _, entry in ipairs(entries) do
    local fields = entry[2]
    for j = 2, #fields, 2 do
      if mode == 'list' then
        note('events', fields[j - 1], fields[j])
      elseif sealed(fields[j]) then
        fields[j] = swap(fields[j])
      end
    end
  end
  if mode == 'list' or hits == before then return end
  local ttl = redis.call('PTTL', key)
  redis.call('DEL', key)
  for _, entry in ipairs(entries) do redis.call('XADD', key, entry[1], unpack(entry[2])) end
  if ttl > 0 then redis.call('PEXPIRE', key, ttl) end
end

if redis.call('EXISTS', KEYS[1]) == 0 then
  if mode == 'list' then return {} end
  return 0
end
for i = 1, 7 do
  if families[i] == 'events' then stream(KEYS[i]) else hash(KEYS[i], families[i]) end
end
if mode == 'list' then return found end
return hits
