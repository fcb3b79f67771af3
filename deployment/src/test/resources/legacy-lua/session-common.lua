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

-- Appends to `reply` the fields p:<n> with the bodies of plans first..seq.
local function plan_bodies(plans, pmap, first, seq, reply)
  if seq < first then return reply end
  local ids = {}
  for n = first, seq do ids[#ids + 1] = 'b:' .. plan_id(pmap, n) end
  local bodies = redis.call('HMGET', plans, unpack(ids))
  for i, body in ipairs(bodies) do
    if body then
      reply[#reply + 1] = 'p:' .. (first + i - 1)
      reply[#reply + 1] = body
    end
  end
  return reply
end

-- Every `every` versions a checkpoint: the state hash's fields packed with MessagePack. Plans are
-- referenced through pmap, never copied, so a checkpoint's size does not depend on the plan count.
-- Then the checkpoint and the replay entries below the retention window's base checkpoint go.
local function checkpoint(state, snap, events, version, every, retention)
  if version % every ~= 0 then return end
  redis.call('HSET', snap, version, cmsgpack.pack(redis.call('HGETALL', state)))
  local base = math.floor(math.max(1, version - retention + 1) / every) * every
  if base > every then redis.call('HDEL', snap, base - every) end
  if base >= 1 then redis.call('XTRIM', events, 'MINID', (base + 1) .. '-0') end
end

