// tabula report viewer: trial list (sort, filter, search), trial views
// (scrubber: buttons, slider, arrow keys), the Latin-letter switch, and a
// self-test run by the browser tests when the address ends in #selftest=ID.
(function () {
  "use strict";
  var errors = [];
  window.addEventListener("error", function (e) { errors.push(String(e.message)); });
  function $(s, r) { return (r || document).querySelector(s); }
  function $$(s, r) { return Array.prototype.slice.call((r || document).querySelectorAll(s)); }
  var list = $("#trial-list"), view = $("#view"), cur = 0;

  function filter() {
    var q = ($("#search").value || "").trim().toLowerCase(), sels = $$("select.filter"), shown = 0;
    $$("tbody tr", list).forEach(function (tr) {
      var ok = !q || tr.getAttribute("data-search").indexOf(q) >= 0;
      sels.forEach(function (s) { if (s.value && tr.getAttribute("data-" + s.getAttribute("data-col")) !== s.value) ok = false; });
      tr.hidden = !ok;
      if (ok) shown++;
    });
    $("#shown").textContent = shown;
  }
  function sortBy(th) {
    var i = Array.prototype.indexOf.call(th.parentNode.children, th), num = th.getAttribute("data-num") === "1";
    var dir = th.classList.contains("asc") ? -1 : 1, body = $("tbody", list);
    $$("th", list).forEach(function (h) { h.classList.remove("asc", "desc"); });
    th.classList.add(dir > 0 ? "asc" : "desc");
    var rows = $$("tr", body);
    rows.sort(function (a, b) {
      var x = a.children[i], y = b.children[i];
      if (num) return dir * ((parseFloat(x.getAttribute("data-v")) || 0) - (parseFloat(y.getAttribute("data-v")) || 0));
      return dir * x.textContent.localeCompare(y.textContent, undefined, { numeric: true });
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  if (list) {
    $("#search").addEventListener("input", filter);
    $$("select.filter").forEach(function (s) { s.addEventListener("change", filter); });
    $$("th", list).forEach(function (th) { th.addEventListener("click", function () { sortBy(th); }); });
    $("tbody", list).addEventListener("click", function (e) {
      var tr = e.target.closest("tr");
      if (tr) location.hash = "trial=" + encodeURIComponent(tr.getAttribute("data-id"));
    });
  }

  // compact frames (tabula.view.frames): a group's token dictionary (a game's matches
  // share one), read once; a trial view's streams rebuilt frame by frame from the one
  // before, kept as built. Data written deflated (data-z="deflate": zlib's raw DEFLATE,
  // base64) is inflated here, synchronously, by inflate() below.
  var dicts = {}, compact = null;
  function unpack(el) {
    if (el.getAttribute("data-z") !== "deflate") return el.textContent;
    var bin = atob(el.textContent), a = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) a[i] = bin.charCodeAt(i);
    return new TextDecoder("utf-8").decode(inflate(a));
  }
  function tokens(group) {
    if (!dicts[group]) {
      var el = null;
      $$("script.frame-tokens").forEach(function (s) { if (s.getAttribute("data-dict") === group) el = s; });
      dicts[group] = el ? JSON.parse(unpack(el)) : [];
    }
    return dicts[group];
  }
  // inflate(bytes) -> the bytes a raw DEFLATE stream (RFC 1951) holds
  var LB = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258],
    LE = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0],
    DB = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
      8193, 12289, 16385, 24577],
    DE = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13],
    CLO = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
  function inflate(src) {
    var out = new Uint8Array(Math.max(4096, src.length * 8)), op = 0, ip = 0, buf = 0, cnt = 0, i;
    function need(n) { while (cnt < n) { buf |= (ip < src.length ? src[ip] : 0) << cnt; ip++; cnt += 8; } }
    function get(n) { need(n); var v = buf & ((1 << n) - 1); buf >>>= n; cnt -= n; return v; }
    function room(k) {
      if (op + k <= out.length) return;
      var o = new Uint8Array(Math.max(out.length * 2, op + k)); o.set(out); out = o;
    }
    // table(lens) -> the code as a lookup on its longest length's worth of bits:
    // entries symbol << 4 | code length
    function table(lens) {
      var m = 1, count = [], next = [], b, code = 0, i;
      for (b = 0; b < 16; b++) count[b] = 0;
      for (i = 0; i < lens.length; i++) { count[lens[i]]++; if (lens[i] > m) m = lens[i]; }
      count[0] = 0;
      for (b = 1; b < 16; b++) { code = (code + count[b - 1]) << 1; next[b] = code; }
      var t = new Int32Array(1 << m);
      for (i = 0; i < lens.length; i++) {
        var l = lens[i];
        if (!l) continue;
        var c = next[l]++, r = 0;
        for (var k = 0; k < l; k++) { r = (r << 1) | (c & 1); c >>= 1; }
        for (var j = r; j < t.length; j += 1 << l) t[j] = (i << 4) | l;
      }
      return { t: t, m: m };
    }
    function sym(h) {
      need(h.m);
      var e = h.t[buf & ((1 << h.m) - 1)], l = e & 15;
      if (!l) throw new Error("inflate: a code not in the table");
      buf >>>= l; cnt -= l;
      return e >> 4;
    }
    var last, lt, dt, lens;
    do {
      last = get(1);
      var type = get(2);
      if (type === 0) {             // stored
        get(cnt & 7);
        var len = get(16);
        get(16);
        room(len);
        for (i = 0; i < len; i++) out[op++] = get(8);
        continue;
      }
      if (type === 1) {             // the fixed codes
        lens = [];
        for (i = 0; i < 288; i++) lens.push(i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8);
        lt = table(lens);
        lens = [];
        for (i = 0; i < 30; i++) lens.push(5);
        dt = table(lens);
      } else if (type === 2) {      // codes sent with the block
        var hlit = get(5) + 257, hdist = get(5) + 1, hclen = get(4) + 4, cl = [];
        for (i = 0; i < 19; i++) cl[i] = 0;
        for (i = 0; i < hclen; i++) cl[CLO[i]] = get(3);
        var ct = table(cl);
        lens = [];
        while (lens.length < hlit + hdist) {
          var s = sym(ct), r;
          if (s < 16) lens.push(s);
          else if (s === 16) { var p = lens[lens.length - 1]; for (r = 3 + get(2); r > 0; r--) lens.push(p); }
          else if (s === 17) { for (r = 3 + get(3); r > 0; r--) lens.push(0); }
          else { for (r = 11 + get(7); r > 0; r--) lens.push(0); }
        }
        lt = table(lens.slice(0, hlit));
        dt = table(lens.slice(hlit));
      } else throw new Error("inflate: block type 3");
      for (;;) {
        var v = sym(lt);
        if (v < 256) { room(1); out[op++] = v; continue; }
        if (v === 256) break;
        v -= 257;
        var n = LB[v] + get(LE[v]), d = sym(dt), dist = DB[d] + get(DE[d]);
        room(n);
        for (var q = 0; q < n; q++) { out[op] = out[op - dist]; op++; }
      }
    } while (!last);
    return out.subarray(0, op);
  }
  window.tabulaInflate = inflate;      // the tests check it against the browser's own inflater
  function rebuild(prev, ops, from0) {
    var out = [];
    for (var k = from0 || 0; k < ops.length; k++) {
      var x = ops[k];
      if (x >= 0) { out.push(x); continue; }
      var from = out.length + ops[++k];
      for (var c = 0; c < -x; c++) out.push(prev[from + c]);
    }
    return out;
  }
  function built(stream, i) {
    var b = compact.built[stream];
    for (var j = b.length; j <= i; j++) b.push(rebuild(j ? b[j - 1] : [], compact.data[stream][j]));
    return b[i];
  }
  function text(ids) {
    var d = tokens(compact.group);
    return ids.map(function (t) { return d[t]; }).join("");
  }
  function frameOf(stream, i) { return text(built(stream, i)); }
  // seat k's own drawing of frame i: its ops against the public drawing of frame i
  // (base 0) or against its own drawing of frame i - 1 (base 1)
  function seatFrame(k, i) {
    var b = compact.seatBuilt[k] || (compact.seatBuilt[k] = []);
    for (var j = b.length; j <= i; j++) {
      var ops = compact.data.seats[k - 1][j];
      b.push(rebuild(ops[0] === 1 ? (j ? b[j - 1] : []) : built("svg", j), ops, 1));
    }
    return text(b[i]);
  }
  function drawCompact(tv, i) {
    var f = $(".frame", tv), cap = $("figcaption", f), seat = compact.seat;
    $(".fboard", f).innerHTML = seat && compact.data.seats ? seatFrame(seat, i) : frameOf("svg", i);
    var tip = frameOf("tips", i);
    cap.textContent = frameOf("labels", i);
    cap.title = tip ? "action id: " + tip : "";
    // a seat's observation text is private: shown only while that seat is picked
    var mine = !compact.data.who || (seat && compact.data.who[i] === seat);
    var txt = mine ? frameOf("text", i) : "", det = $(".obs-text", f);
    $("pre", det).textContent = txt;
    det.hidden = !txt;
    f.setAttribute("data-i", i);
  }

  function show(i, scroll) {
    var tv = $(".tv", view);
    if (!tv) return;
    var n = parseInt(tv.getAttribute("data-frames"), 10);
    cur = Math.max(0, Math.min(n - 1, i));
    if (compact) drawCompact(tv, cur);
    $$(".frame", tv).forEach(function (f) { f.classList.toggle("cur", parseInt(f.getAttribute("data-i"), 10) === cur); });
    $("input[type=range]", tv).value = cur;
    $(".pos", tv).textContent = cur + " / " + (n - 1);
    var first = null;
    $$(".msg", tv).forEach(function (m) {
      var at = parseInt(m.getAttribute("data-frame"), 10) === cur;
      m.classList.toggle("at", at);
      if (at && !first) first = m;
    });
    if (scroll && first) first.scrollIntoView({ block: "nearest" });
  }
  function open(id, ply) {
    var tr = null;
    $$("tbody tr", list).forEach(function (r) { if (r.getAttribute("data-id") === id) tr = r; });
    if (!tr) return false;
    var tpl = document.getElementById("tv-" + tr.getAttribute("data-n"));
    view.innerHTML = "";
    view.appendChild(tpl.content.cloneNode(true));
    // shared parts, which may hold shared parts themselves; a drawing's part (<g data-r>)
    // is kept inside an <svg> in its template, so its elements are SVG ones
    for (var left = $$("[data-r]", view); left.length; left = $$("[data-r]", view)) {
      left.forEach(function (el) {
        var c = document.getElementById("r-" + el.getAttribute("data-r")).content;
        if (el.tagName.toLowerCase() === "g") {
          var frag = document.createDocumentFragment();
          Array.prototype.forEach.call(c.firstElementChild.childNodes, function (k) { frag.appendChild(k.cloneNode(true)); });
          el.replaceWith(frag);
        } else el.replaceWith(c.cloneNode(true));
      });
    }
    var data = $(".frames-data", view);
    compact = data ? { data: JSON.parse(unpack(data)), group: data.getAttribute("data-dict") || "", seat: 0, seatBuilt: {},
      built: { svg: [], text: [], labels: [], tips: [] } } : null;
    // a compact view without a transcript lists its moves there: each frame's caption (the
    // game's label of the action), its action id on hover, a click goes to it
    var empty = compact && $(".transcript .empty", view);
    if (empty) {
      var ol = document.createElement("ol");
      ol.className = "moves";
      ol.start = 0;
      for (var i = 0; i < compact.data.n; i++) {
        var li = document.createElement("li"), tip = frameOf("tips", i);
        li.className = "msg";
        li.setAttribute("data-frame", i);
        li.textContent = frameOf("labels", i);
        if (tip) li.title = "action id: " + tip;
        ol.appendChild(li);
      }
      empty.replaceWith(ol);
    }
    view.hidden = false;
    $("#overview").hidden = true;
    $("#trials").hidden = true;
    var tv = $(".tv", view);
    $$(".scrub button", tv).forEach(function (b) {
      b.addEventListener("click", function () { show(cur + parseInt(b.getAttribute("data-step"), 10), true); });
    });
    $("input[type=range]", tv).addEventListener("input", function (e) { show(parseInt(e.target.value, 10), true); });
    var pickSeat = $("select.seat-pick", tv);
    if (pickSeat && compact) pickSeat.addEventListener("change", function () {
      compact.seat = parseInt(pickSeat.value, 10) || 0;
      show(cur, false);
    });
    $$(".msg", tv).forEach(function (m) {
      m.addEventListener("click", function () { show(parseInt(m.getAttribute("data-frame"), 10), false); });
    });
    show(ply || 0, !!ply);      // a frame named in the address: its message or move in view
    window.scrollTo(0, 0);
    return true;
  }
  function route() {
    var h = decodeURIComponent(location.hash.slice(1)), m = /^trial=(.*?)(?:&ply=(\d+))?$/.exec(h);
    if (m && list && open(m[1], parseInt(m[2] || "0", 10))) return;
    if (view) { view.hidden = true; view.innerHTML = ""; }
    if ($("#overview")) $("#overview").hidden = false;
    if ($("#trials")) $("#trials").hidden = false;
    if (h === "trials" && $("#trials")) $("#trials").scrollIntoView();
  }
  document.addEventListener("keydown", function (e) {
    if (!view || view.hidden || /INPUT|SELECT|TEXTAREA/.test(e.target.tagName || "")) return;
    var step = { ArrowRight: 1, ArrowLeft: -1, Home: -9999, End: 9999 }[e.key];
    if (step) { show(cur + step, true); e.preventDefault(); }
  });
  var latin = false;
  if ($("#letters")) $("#letters").addEventListener("click", function () {
    latin = !latin;
    $$("svg.defs text.zh").forEach(function (t) { t.setAttribute("display", latin ? "none" : "inline"); });
    $$("svg.defs text.la").forEach(function (t) { t.setAttribute("display", latin ? "inline" : "none"); });
    this.textContent = latin ? "Chinese glyphs" : "Latin letters";
  });

  // the browser tests' driver: open one trial, move the scrubber with the
  // keyboard and the buttons, and write what happened into the page
  // overlaps() -> for each plot of the overview, the pairs of its labels whose boxes intersect
  function overlaps() {
    return $$("svg.plot").map(function (svg) {
      var boxes = $$("text.lbl", svg).map(function (t) { return { r: t.getBoundingClientRect(), s: t.textContent }; });
      var bad = [];
      for (var i = 0; i < boxes.length; i++) {
        for (var j = i + 1; j < boxes.length; j++) {
          var a = boxes[i].r, b = boxes[j].r;
          if (a.width && b.width && a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
            bad.push(boxes[i].s + " / " + boxes[j].s);
        }
      }
      return { title: ($("text", svg) || { textContent: "" }).textContent, labels: boxes.length, overlaps: bad };
    });
  }
  function selftest(id) {
    var title = document.title, res = { rows: list ? $$("tbody tr", list).length : 0 };
    res.ids = list ? $$("tbody tr", list).map(function (r) { return r.getAttribute("data-id"); }) : [];
    res.plots = overlaps();
    res.empty_plots = $$(".plot-empty").length;
    // the list: filter by outcome, search by id, sort by a column
    var sel = $("select.filter[data-col=outcome]");
    if (sel && sel.options.length > 1) {
      sel.value = sel.options[1].value;
      sel.dispatchEvent(new Event("change"));
      res.filter = { value: sel.value, shown: $$("tbody tr", list).filter(function (r) { return !r.hidden; }).length };
      sel.value = "";
      sel.dispatchEvent(new Event("change"));
    }
    var search = $("#search");
    search.value = id;
    search.dispatchEvent(new Event("input"));
    res.search = $$("tbody tr", list).filter(function (r) { return !r.hidden; }).length;
    search.value = "";
    search.dispatchEvent(new Event("input"));
    var th = $("th", list);
    th.click(); th.click();
    res.sorted_desc = $$("tbody tr", list).map(function (r) { return r.getAttribute("data-id"); });
    var letters = $("#letters");
    res.letters_button = !!letters;
    if (letters) {
      letters.click();
      res.latin = $("svg.defs text.la").getAttribute("display") === "inline" && $("svg.defs text.zh").getAttribute("display") === "none";
      letters.click();
    }
    res.opened = open(id, 0);
    var tv = $(".tv", view);
    res.frames = tv ? parseInt(tv.getAttribute("data-frames"), 10) : 0;
    function board() { var f = $(".frame.cur", view); return f ? f.innerHTML : ""; }
    var b0 = board(), i0 = cur;
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
    res.key = { before: i0, after: cur, changed: board() !== b0 };
    var b1 = board(), i1 = cur, next = $(".scrub button[data-step='1']", view);
    if (next) next.click();
    res.button = { before: i1, after: cur, changed: board() !== b1 };
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "Home", bubbles: true }));
    res.home = cur;
    res.title_kept = document.title === title;
    res.transcript_imgs = $$(".transcript img:not(.sent), .transcript script", view).length;
    res.sent_images = [];
    res.verdict = ($(".verdict", view) || { textContent: "" }).textContent;
    // what each frame's board holds: stones, pieces, tiles, cards, followers
    function stats(f) {
      var svg = $("svg.board", f);
      if (!svg) return null;
      return { cls: svg.getAttribute("class"), stones: $$("circle.stone", svg).length, pieces: Math.max(0, $$("use", svg).length - 1),
        tiles: $$(".tile", svg).length, followers: $$("circle.follower", svg).length, market: $$("g.card.market", svg).length,
        built: $$("g.card.built", svg).length, options: $$("text.option", svg).length, accepted: $$("rect.accepted", svg).length,
        chosen: $$("circle.chosen", svg).length, last: $$("circle.last", svg).length };
    }
    if (compact) {
      res.boards = [];
      for (var k = 0; k < res.frames; k++) { show(k, false); res.boards.push(stats($(".frame", view))); }
      show(0, false);
    } else res.boards = $$(".frame", view).map(stats);
    function done() {
      res.errors = errors;
      var pre = document.createElement("pre");
      pre.id = "selftest-result";
      pre.textContent = JSON.stringify(res);
      document.body.appendChild(pre);
    }
    // the images the model was sent: each must decode. The self-test runs while
    // the page is parsed, so the images just put into the document hold back its
    // load event, which --dump-dom waits for: read them then, not after a decode()
    // that may settle after the dump
    var imgs = $$(".transcript img.sent", view);
    function images() {
      res.sent_images = imgs.map(function (im) {
        return { width: im.complete ? im.naturalWidth : -1, data: im.getAttribute("src").slice(0, 22) };
      });
      done();
    }
    if (!imgs.length) return done();
    if (document.readyState === "complete") images(); else window.addEventListener("load", images);
  }
  // the overview's per-game panels: one game at a time, picked with the selector
  var pick = $("#panel-group");
  if (pick) pick.addEventListener("change", function () {
    $$("[data-group]").forEach(function (p) { p.hidden = p.getAttribute("data-group") !== pick.value; });
  });
  // a page written during the run reloads itself as often as it is rewritten (the
  // open trial stays open: the address keeps it); the final page has no data-reload
  var every = parseInt(document.body.getAttribute("data-reload") || "0", 10);
  if (every > 0 && !/^#selftest=/.test(location.hash)) setTimeout(function () { location.reload(); }, every * 1000);
  window.addEventListener("hashchange", route);
  var st = /^#selftest=(.*)$/.exec(location.hash);
  if (st) selftest(decodeURIComponent(st[1])); else route();
})();
