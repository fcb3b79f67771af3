-- KEYS: state, snap, events, chat, trace, plans, idempotency
-- ARGV: replacement, texts...
-- Blanks forgotten texts out of one session, in place, atomically: the state (values and field names), the undo records and the
-- checkpoints, legacy or not (unpacked, scrubbed and packed again; the byte counters beside them are left alone), the replay log (rebuilt under the same entry ids), the chat windows, the step
-- traces, the plan bodies and the idempotency records. Versions, the CAS guard and the keys' TTLs are left as
-- they are: a scrub is no new version. Running it again finds nothing more.
-- replacement: what a text becomes; texts: the texts to blank, each in every form it is stored in (raw,
-- JSON-escaped …), longest first.
-- Returns the number of replacements.
local replacement, hits = ARGV[1], 0

local function blank(s)
  if type(s) ~= 'string' then return s end
  for i = 2, #ARGV do
    local needle = ARGV[i]
    local a, b = string.find(s, needle, 1, true)
    if needle ~= '' and a then
      local out, from = {}, 1
      while a do
        out[#out + 1] = string.sub(s, from, a - 1)
        out[#out + 1] = replacement
        hits = hits + 1
        from = b + 1
        a, b = string.find(s, needle, from, true)
      end
      out[#out + 1] = string.sub(s, from)
      s = table.concat(out)
    end
  end
  return s
end

local function packed(value)
  local fields = cmsgpack.unpack(value)
  local before = hits
  for j = 1, #fields do fields[j] = blank(fields[j]) end
  if hits == before then return value end
  return cmsgpack.pack(fields)
end

-- the snap hash's counters, its list of checkpoints and the session's actor (a user id, not a text of theirs), which
-- are plain, not packed fields
local counters = { size = true, log = true, granted = true, legacy = true, cw = true, cps = true, actor = true }

-- A state field's name after its prefix is text too (an open question is q:<text>, a collected entry k:<key>):
-- such a name is renamed; when the blanked name is already taken, the field already there is kept.
local function renamed(field)
  local prefix, rest = string.match(field, '^(%a:)(.*)$')
  if not prefix then return field end
  return prefix .. blank(rest)
end

local function hash(key, scrub, names)
  local all = redis.call('HGETALL', key)
  for i = 1, #all, 2 do
    local field, value = all[i], all[i + 1]
    if not (scrub == packed and counters[field]) then
      local scrubbed = scrub(value)
      local name = names and renamed(field) or field
      if name ~= field then
        redis.call('HDEL', key, field)
        if redis.call('HEXISTS', key, name) == 0 then redis.call('HSET', key, name, scrubbed) end
      elseif scrubbed ~= value then
        redis.call('HSET', key, field, scrubbed)
      end
    end
  end
end

-- a stream entry cannot be changed: the log is written again with the same ids when an entry changes
local function stream(key)
  local entries = redis.call('XRANGE', key, '-', '+')
  local before = hits
  for _, entry in ipairs(entries) do
    local fields = entry[2]
    for j = 2, #fields, 2 do fields[j] = blank(fields[j]) end
  end
  if hits == before then return end
  local ttl = redis.call('PTTL', key)
  redis.call('DEL', key)
  for _, entry in ipairs(entries) do
    redis.call('XADD', key, entry[1], unpack(entry[2]))
  end
  if ttl > 0 then redis.call('PEXPIRE', key, ttl) end
end

if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
hash(KEYS[1], blank, true)
hash(KEYS[2], packed)
stream(KEYS[3])
for i = 4, 7 do hash(KEYS[i], blank) end
return hits
