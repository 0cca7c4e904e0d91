-- tabula.view.deflate — raw DEFLATE (RFC 1951) in Lua, for the report's compact frame
-- data (tabula.view.frames): the page keeps a match's frames and a game's token
-- dictionary deflated and base64-encoded, and report.js inflates them when a match
-- view opens. Compression only (the page does the inflating): LZ77 over a 32 KiB window
-- with hash chains (exact three-byte keys, at most M.CHAIN candidates a position, one
-- step of lazy matching), then blocks with their own Huffman codes (dynamic blocks,
-- code lengths limited to 15 bits, 7 for the code-length code).
--   deflate.deflate(s) -> the raw DEFLATE stream of s (no zlib or gzip wrapper)
local M = {}

M.CHAIN = 48          -- candidates tried per position
M.NICE = 96           -- a match this long is taken without looking further
M.BLOCK = 65536       -- symbols per block (each block gets its own codes)

local WSIZE = 32768
local byte, char, concat = string.byte, string.char, table.concat

-- the length codes 257..285: base length and extra bits; the distance codes 0..29
local LBASE = { 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258 }
local LEXTRA = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0 }
local DBASE = { 1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
  4097, 6145, 8193, 12289, 16385, 24577 }
local DEXTRA = { 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13 }
-- the order the code-length code's lengths are sent in
local CLORDER = { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 }

-- LCODE[len] -> the length's code index (1-based into LBASE); DCODE_LO[d] for d <= 256,
-- DCODE_HI[(d - 1) >> 7] above (as zlib splits its table)
local LCODE, DCODE_LO, DCODE_HI = {}, {}, {}
for c = 1, #LBASE do
  local top = c < #LBASE and LBASE[c + 1] - 1 or 258
  for l = LBASE[c], top do LCODE[l] = c end
end
LCODE[258] = #LBASE
for c = 1, #DBASE do
  local top = c < #DBASE and DBASE[c + 1] - 1 or 32768
  for d = DBASE[c], top do
    if d <= 256 then DCODE_LO[d] = c end
    if d > 256 then DCODE_HI[(d - 1) >> 7] = c end
  end
end

-- lengths(freq, n, limit) -> the Huffman code lengths (0-based symbol index) of the
-- symbols 0..n-1 with the given frequencies, none longer than limit. Frequencies are
-- halved (kept >= 1) until the tree fits: a little above optimal at worst.
local function lengths(freq, n, limit)
  local len = {}
  for s = 0, n - 1 do len[s] = 0 end
  local used = {}
  for s = 0, n - 1 do if (freq[s] or 0) > 0 then used[#used + 1] = s end end
  if #used == 0 then return len end
  if #used == 1 then len[used[1]] = 1; return len end
  local f = {}
  for _, s in ipairs(used) do f[s] = freq[s] end
  while true do
    -- two queues: the leaves by weight, the merged nodes in the order made
    local leaves = {}
    for i, s in ipairs(used) do leaves[i] = s end
    table.sort(leaves, function(a, b) if f[a] ~= f[b] then return f[a] < f[b] end return a < b end)
    local w, parent = {}, {}          -- node -> weight, node -> parent; leaves are -1 - symbol
    for _, s in ipairs(leaves) do w[-1 - s] = f[s] end
    local qi, mi, merged, nid = 1, 1, {}, 0
    local function take()
      if qi <= #leaves and (mi > #merged or w[-1 - leaves[qi]] <= w[merged[mi]]) then
        qi = qi + 1; return -1 - leaves[qi - 1]
      end
      mi = mi + 1; return merged[mi - 1]
    end
    for _ = 1, #leaves - 1 do
      local a, b = take(), take()
      nid = nid + 1
      w[nid], parent[a], parent[b] = w[a] + w[b], nid, nid
      merged[#merged + 1] = nid
    end
    local depth, maxd = { [nid] = 0 }, 0
    for k = nid - 1, 1, -1 do depth[k] = depth[parent[k]] + 1 end
    for _, s in ipairs(used) do
      local d = depth[parent[-1 - s]] + 1
      len[s] = d
      if d > maxd then maxd = d end
    end
    if maxd <= limit then return len end
    for _, s in ipairs(used) do f[s] = (f[s] + 1) >> 1 end
  end
end

-- codes(len, n) -> the canonical codes, bit-reversed for the LSB-first stream
local function codes(len, n)
  local count, next_code = {}, {}
  for b = 0, 15 do count[b] = 0 end
  for s = 0, n - 1 do count[len[s]] = count[len[s]] + 1 end
  count[0] = 0
  local code = 0
  for b = 1, 15 do
    code = (code + count[b - 1]) << 1
    next_code[b] = code
  end
  local out = {}
  for s = 0, n - 1 do
    local l = len[s]
    if l > 0 then
      local c, r = next_code[l], 0
      next_code[l] = c + 1
      for _ = 1, l do r = (r << 1) | (c & 1); c = c >> 1 end
      out[s] = r
    end
  end
  return out
end

-- deflate(s) -> the raw DEFLATE stream of s
function M.deflate(s)
  local n = #s
  local b = {}
  for i = 1, n, 4096 do
    local j = math.min(n, i + 4095)
    local t = { byte(s, i, j) }
    table.move(t, 1, #t, i, b)
  end
  -- LZ77: sym[k] is a byte (0..255) or 256 + a match length; dist[k] its distance
  local sym, dist, ns = {}, {}, 0
  local head, prev = {}, {}
  local CHAIN, NICE = M.CHAIN, M.NICE
  local function insert(i)
    local key = (b[i] << 16) | (b[i + 1] << 8) | b[i + 2]
    prev[i] = head[key]
    head[key] = i
  end
  -- find(i) -> the longest match at i (length, distance), 0 when none of 3 or more
  local function find(i)
    if i + 2 > n then return 0, 0 end
    local cand = head[(b[i] << 16) | (b[i + 1] << 8) | b[i + 2]]
    local best, bdist = 0, 0
    local maxlen = n - i + 1
    if maxlen > 258 then maxlen = 258 end
    local chain, low = CHAIN, i - WSIZE
    while cand and cand >= low and chain > 0 do
      if b[cand + best] == b[i + best] then
        local l = 3
        while l < maxlen and b[cand + l] == b[i + l] do l = l + 1 end
        if l > best then
          best, bdist = l, i - cand
          if l >= NICE or l >= maxlen then break end
        end
      end
      cand = prev[cand]
      chain = chain - 1
    end
    return best, bdist
  end
  local i = 1
  local plen, pdist = 0, 0          -- the match found at i, carried over from the lazy look
  local have = false
  while i <= n do
    local len, d
    if have then len, d = plen, pdist else len, d = find(i) end
    have = false
    if i + 2 <= n then insert(i) end
    if len >= 3 and len < NICE and i + 1 <= n then
      -- lazy: a longer match one byte on makes this byte a literal
      local l2, d2 = find(i + 1)
      if l2 > len then
        ns = ns + 1; sym[ns] = b[i]
        i = i + 1
        plen, pdist, have = l2, d2, true
        len = 0
      end
    end
    if len >= 3 then
      ns = ns + 1; sym[ns] = 256 + len; dist[ns] = d
      for k = i + 1, i + len - 1 do if k + 2 <= n then insert(k) end end
      i = i + len
    elseif not have then
      ns = ns + 1; sym[ns] = b[i]
      i = i + 1
    end
  end
  -- the bit writer
  local out, nb, buf, bits = {}, 0, 0, 0
  local function put(v, k)
    buf = buf | (v << bits)
    bits = bits + k
    while bits >= 8 do
      nb = nb + 1; out[nb] = buf & 255
      buf = buf >> 8; bits = bits - 8
    end
  end
  local first = 1
  repeat
    local last = math.min(ns, first + M.BLOCK - 1)
    local lf, df = { [256] = 1 }, {}
    for k = first, last do
      local v = sym[k]
      if v < 256 then lf[v] = (lf[v] or 0) + 1
      else
        local lc = 256 + LCODE[v - 256]
        lf[lc] = (lf[lc] or 0) + 1
        local dd = dist[k]
        local dc = (dd <= 256 and DCODE_LO[dd] or DCODE_HI[(dd - 1) >> 7]) - 1
        df[dc] = (df[dc] or 0) + 1
      end
    end
    -- two distance codes at least, so every inflater takes the code as complete
    if (df[0] or 0) == 0 then df[0] = 1 end
    if (df[1] or 0) == 0 then df[1] = 1 end
    local ll, dl = lengths(lf, 286, 15), lengths(df, 30, 15)
    local hlit, hdist = 286, 30
    while hlit > 257 and ll[hlit - 1] == 0 do hlit = hlit - 1 end
    while hdist > 1 and dl[hdist - 1] == 0 do hdist = hdist - 1 end
    -- the code lengths of both codes, run-length coded (16: repeat the last 3-6 times;
    -- 17: 3-10 zeros; 18: 11-138 zeros)
    local seq = {}
    for s = 0, hlit - 1 do seq[#seq + 1] = ll[s] end
    for s = 0, hdist - 1 do seq[#seq + 1] = dl[s] end
    local rl, rx, cf = {}, {}, {}
    local k = 1
    while k <= #seq do
      local v, run = seq[k], 1
      while k + run <= #seq and seq[k + run] == v do run = run + 1 end
      if v == 0 and run >= 3 then
        local r = math.min(run, 138)
        if r >= 11 then rl[#rl + 1], rx[#rl + 1] = 18, r - 11 else rl[#rl + 1], rx[#rl + 1] = 17, r - 3 end
        k = k + r
      elseif v ~= 0 and run >= 4 then
        rl[#rl + 1] = v; k = k + 1
        local r = math.min(run - 1, 6)
        rl[#rl + 1], rx[#rl + 1] = 16, r - 3
        k = k + r
      else
        rl[#rl + 1] = v; k = k + 1
      end
    end
    for _, c in ipairs(rl) do cf[c] = (cf[c] or 0) + 1 end
    local cl = lengths(cf, 19, 7)
    local hclen = 19
    while hclen > 4 and cl[CLORDER[hclen]] == 0 do hclen = hclen - 1 end
    local lcode, dcode, ccode = codes(ll, 286), codes(dl, 30), codes(cl, 19)
    put(last == ns and 1 or 0, 1)
    put(2, 2)
    put(hlit - 257, 5); put(hdist - 1, 5); put(hclen - 4, 4)
    for j = 1, hclen do put(cl[CLORDER[j]], 3) end
    for j, c in ipairs(rl) do
      put(ccode[c], cl[c])
      if c == 16 then put(rx[j], 2) elseif c == 17 then put(rx[j], 3) elseif c == 18 then put(rx[j], 7) end
    end
    for kk = first, last do
      local v = sym[kk]
      if v < 256 then put(lcode[v], ll[v])
      else
        local len = v - 256
        local c = LCODE[len]
        put(lcode[256 + c], ll[256 + c])
        if LEXTRA[c] > 0 then put(len - LBASE[c], LEXTRA[c]) end
        local dd = dist[kk]
        local dc = dd <= 256 and DCODE_LO[dd] or DCODE_HI[(dd - 1) >> 7]
        put(dcode[dc - 1], dl[dc - 1])
        if DEXTRA[dc] > 0 then put(dd - DBASE[dc], DEXTRA[dc]) end
      end
    end
    put(lcode[256], ll[256])
    first = last + 1
  until first > ns
  if bits > 0 then nb = nb + 1; out[nb] = buf & 255 end
  local parts = {}
  for j = 1, nb, 4096 do parts[#parts + 1] = char(table.unpack(out, j, math.min(nb, j + 4095))) end
  return concat(parts)
end

return M
