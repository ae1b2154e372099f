// Draws the trace views of this page from the JSON above it; no network, no libraries.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('interlock-data').textContent);
  var LEFT = 190, RIGHT = 110, AXIS = 34, LANE = 22, LOCK = 18, GAP = 10, MEM = 170, FOOT = 18;
  var GIB = 1073741824, MIB = 1048576, KIB = 1024;
  var tip = document.getElementById('tip');

  function size(b) {
    if (b !== 0 && b % GIB === 0) { return b / GIB + 'GiB'; }
    if (b !== 0 && b % MIB === 0) { return b / MIB + 'MiB'; }
    if (b !== 0 && b % KIB === 0) { return b / KIB + 'KiB'; }
    return b + 'B';
  }
  function esc(s) {
    return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  }
  // hues from 40 to 320: reds are kept for the violation
  function hue(name) {
    var h = 7;
    for (var i = 0; i < name.length; i++) { h = (h * 31 + name.charCodeAt(i)) % 2800; }
    return 40 + Math.floor(h / 10);
  }
  function laneHue(i) { return 40 + Math.round(i * 97.3) % 280; }
  function f(x) { return Math.round(x * 10) / 10; }

  // one column width for every view on a transition axis, so that their columns line up
  var cols = 1;
  data.views.forEach(function (v) {
    if (v.axis === 'transition' && v.marks.length) { cols = Math.max(cols, v.marks[v.marks.length - 1][0]); }
  });
  var COL = Math.max(4, Math.min(44, Math.floor(1100 / cols)));

  function geometry(v) {
    var g = {};
    if (v.axis === 'transition') {
      g.width = LEFT + cols * COL + RIGHT;
      g.left = function (x) { return LEFT + (x - 1) * COL; };
      g.center = function (x) { return LEFT + (x - 0.5) * COL; };
      g.span = function (j) { var a = g.left(v.marks[j][0]); return [a, a + COL]; };
      g.at = function (px) {
        var c = Math.floor((px - LEFT) / COL) + 1;
        return bisect(v.marks, c);
      };
    } else {
      var tmax = v.marks.length ? Math.max(1, v.marks[v.marks.length - 1][0]) : 1;
      var w = Math.max(1100, Math.min(40000, v.marks.length * 4));
      var sc = w / tmax;
      g.width = LEFT + w + RIGHT;
      g.center = function (x) { return LEFT + x * sc; };
      g.left = g.center;
      g.span = function (j) {
        var a = g.center(v.marks[j][0]);
        var b = j + 1 < v.marks.length ? g.center(v.marks[j + 1][0]) : a + 3;
        return [a, Math.max(b, a + 0.5)];
      };
      g.at = function (px) { return bisect(v.marks, (px - LEFT) / sc); };
      g.scale = sc;
      g.tmax = tmax;
    }
    return g;
  }

  // the last mark at or before x
  function bisect(marks, x) {
    var lo = 0, hi = marks.length - 1;
    if (hi < 0 || x < marks[0][0]) { return -1; }
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (marks[mid][0] <= x) { lo = mid; } else { hi = mid - 1; }
    }
    return lo;
  }

  // a mark's class from its step's category, which the model's step type decided (lock, memory, interval, task, branch,
  // choice); a failed allocation whose on oom took over by what the design does then (handled, ignored), a kernel's
  // begin that ran without a missing buffer outlined
  // marks: [x, lane, index, step, phase, used, cached, failed, category, oom, without, after]
  function kind(v, m) {
    if (m[9]) { return 'mk mk-oom-' + m[9] + (m[7] ? ' mk-failed-oom' : ''); }
    if (m[7]) { return 'mk mk-failed'; }
    return 'mk mk-' + v.categories[m[8]] + (m[10] && m[10].length ? ' mk-without' : '');
  }
  // diagonal stripes inside a rectangle, as one path (no pattern reference: the page names nothing outside itself)
  function hatch(x, y, w, h, cls) {
    var d = [], s = 5;
    for (var t = s / 2; t < w + h; t += s) {
      var x0 = x + t, y0 = y, x1 = x + t - h, y1 = y + h;
      if (x0 > x + w) { y0 = y + (x0 - x - w); x0 = x + w; }
      if (x1 < x) { y1 = y + h - (x - x1); x1 = x; }
      if (y1 > y0) { d.push('M' + f(x0) + ' ' + f(y0) + 'L' + f(x1) + ' ' + f(y1)); }
    }
    return d.length ? '<path class="' + cls + '" d="' + d.join('') + '"/>' : '';
  }
  function allocBuffer(step) { return step.split(' ')[1] || '?'; }
  // what a mark's phase means, for its tooltip
  function phaseText(v, m) {
    var cat = v.categories[m[8]];
    if (m[4] === 'oom') {
      if (m[9] === 'ignored') { return 'the allocation failed; on oom ignore: the job goes on without ' + allocBuffer(m[3]); }
      if (m[9] === 'handled') { return 'the allocation failed; its on oom handler runs next (' + allocBuffer(m[3]) + ' is not live)'; }
      return 'the allocation failed; its on oom took over';
    }
    if (cat === 'choice') { return m[4] === 'else' ? 'choose: took the second path (after or)' : 'choose: took the first path'; }
    return '';
  }

  function render(v, vi) {
    var g = geometry(v);
    var o = [];
    var seen = {}; // which of the oom, without and choice marks this view has: their legend entries
    var lanesTop = AXIS;
    var locksTop = lanesTop + v.lanes.length * LANE + GAP;
    var memTop = locksTop + v.locks.length * LOCK + GAP;
    var height = memTop + MEM + FOOT;
    var right = v.marks.length ? g.span(v.marks.length - 1)[1] : g.width - RIGHT;
    var laneIndex = {};
    v.lanes.forEach(function (l, i) { laneIndex[l[0]] = i; });
    var roleIndex = {};
    v.lanes.forEach(function (l) { if (!l[1]) { roleIndex[l[0]] = Object.keys(roleIndex).length; } });

    // axis
    if (v.axis === 'transition') {
      var every = Math.max(1, Math.ceil(36 / COL));
      for (var c = 1; c <= cols; c++) {
        if (c % every === 0 || c === 1) {
          o.push('<text class="axis" x="' + f(LEFT + (c - 0.5) * COL) + '" y="' + (AXIS - 20) + '" text-anchor="middle">' + c + '</text>');
          o.push('<line class="grid" x1="' + f(LEFT + (c - 1) * COL) + '" x2="' + f(LEFT + (c - 1) * COL) + '" y1="' + AXIS + '" y2="' + (memTop + MEM) + '"/>');
        }
      }
      o.push('<text class="axis" x="8" y="' + (AXIS - 20) + '">transition</text>');
    } else {
      var raw = 120 / g.scale, p = Math.pow(10, Math.floor(Math.log10(raw))), step = p;
      if (raw / p > 5) { step = 10 * p; } else if (raw / p > 2) { step = 5 * p; } else if (raw / p > 1) { step = 2 * p; }
      for (var t = 0; t <= g.tmax; t += step) {
        var x = f(g.center(t));
        o.push('<text class="axis" x="' + x + '" y="' + (AXIS - 20) + '" text-anchor="middle">' + (t / 1e6).toFixed(step < 1e6 ? 3 : 0) + '</text>');
        o.push('<line class="grid" x1="' + x + '" x2="' + x + '" y1="' + AXIS + '" y2="' + (memTop + MEM) + '"/>');
      }
      o.push('<text class="axis" x="8" y="' + (AXIS - 20) + '">time (ms)</text>');
    }

    // thread lanes
    v.lanes.forEach(function (l, i) {
      var y = lanesTop + i * LANE;
      o.push('<rect class="lanebg' + (i % 2 ? ' odd' : '') + '" x="0" y="' + y + '" width="' + g.width + '" height="' + LANE + '"/>');
      o.push('<text x="' + (l[1] ? 22 : 8) + '" y="' + (y + 15) + '">' + esc((l[1] ? '\u2514 ' + l[0].substring(l[2].length + 1) : l[0])) + '</text>');
    });
    // the steps after a swallowed failure: the failing job goes on alone, the other threads paused
    var firstAfter = -1;
    v.marks.forEach(function (m, k) { if (m[11] && firstAfter < 0) { firstAfter = k; } });
    if (firstAfter >= 0) {
      var ax = g.span(firstAfter)[0];
      o.push('<rect class="after" x="' + f(ax) + '" y="' + AXIS + '" width="' + f(right - ax) + '" height="' + (v.lanes.length * LANE) + '"/>');
      o.push('<text class="aftertag" x="' + f(ax + 3) + '" y="' + (AXIS - 4) + '">after the violation: the job goes on without ' + esc(v.highlight && v.highlight.missing ? v.highlight.missing : 'the buffer') + '</text>');
    }
    v.boxes.forEach(function (b, k) {
      var y = lanesTop + b[0] * LANE + 3;
      var x0 = g.center(b[3]), x1 = b[5] ? right : g.center(b[4]);
      var w = Math.max(1, x1 - x0);
      var missing = b[6] && b[6].length;
      o.push('<rect class="box-' + (b[2] ? 'kernel' : 'cpu') + (b[5] ? ' box-open' : '') + (missing ? ' box-without' : '') + '" data-b="' + k + '" x="' + f(x0) + '" y="' + y + '" width="' + f(w) + '" height="' + (LANE - 6) + '"/>');
      if (missing) { o.push(hatch(x0, y, w, LANE - 6, 'stripes')); }
      var label = missing ? b[1] + ' without ' + b[6].join(', ') : b[1];
      if (w > label.length * 6 + 8) {
        o.push('<text class="boxlabel' + (missing ? ' without' : '') + '" x="' + f(x0 + 4) + '" y="' + (y + 12) + '">' + esc(label) + '</text>');
      } else if (missing && w > b[1].length * 6 + 8) {
        o.push('<text class="boxlabel without" x="' + f(x0 + 4) + '" y="' + (y + 12) + '">' + esc(b[1]) + '</text>');
      }
      if (missing) { seen.without = true; }
    });
    var mw = v.axis === 'transition' ? Math.max(2, Math.min(6, COL - 2)) : 2;
    v.marks.forEach(function (m, k) {
      var y = lanesTop + m[1] * LANE + 5;
      var cls = kind(v, m);
      var w = m[7] || m[9] ? Math.max(mw, 5) : mw;
      var hgt = m[9] ? LANE - 6 : LANE - 10, yy = m[9] ? y - 2 : y;
      o.push('<rect class="' + cls + '" data-k="' + k + '" x="' + f(g.center(m[0]) - w / 2) + '" y="' + yy + '" width="' + w + '" height="' + hgt + '"/>');
      if (m[9] === 'ignored') { o.push(hatch(g.center(m[0]) - w / 2, yy, w, hgt, 'stripes')); }
      if (v.axis === 'transition' && COL >= 30 && (m[9] || v.categories[m[8]] === 'choice')) {
        var tag = m[9] === 'ignored' ? 'ignored' : m[9] === 'handled' ? 'handler' : m[9] ? 'oom' : (m[4] === 'else' ? 'path 2' : 'path 1');
        o.push('<text class="marktag' + (m[9] ? ' oom' : '') + '" x="' + f(g.center(m[0]) + w / 2 + 2) + '" y="' + (y + 10) + '">' + tag + '</text>');
      }
      if (m[9]) { seen[m[9]] = true; }
      if (v.categories[m[8]] === 'choice') { seen.choice = true; }
    });

    // lock lanes
    v.locks.forEach(function (name, i) {
      var y = locksTop + i * LOCK;
      o.push('<rect class="lanebg' + (i % 2 ? ' odd' : '') + '" x="0" y="' + y + '" width="' + g.width + '" height="' + LOCK + '"/>');
      o.push('<text x="8" y="' + (y + 13) + '">' + esc(name) + '</text>');
    });
    v.holds.forEach(function (h, k) {
      var y = locksTop + h[0] * LOCK + 2;
      var x0 = g.center(h[3]), x1 = h[5] ? right : g.center(h[4]);
      var w = Math.max(1, x1 - x0);
      var label = h[1] + (h[2] > 1 ? ' \u00d7' + h[2] : '');
      o.push('<rect class="hold" data-h="' + k + '" x="' + f(x0) + '" y="' + y + '" width="' + f(w) + '" height="' + (LOCK - 4) + '" fill="hsl(' + laneHue(laneIndex[h[1]] || 0) + ',50%,66%)"/>');
      if (w > label.length * 6 + 6) {
        o.push('<text class="boxlabel" x="' + f(x0 + 3) + '" y="' + (y + 11) + '">' + esc(label) + '</text>');
      }
    });

    // device memory: live bytes per buffer, stacked, then the pool's cached bytes, against the vram line
    var h = v.highlight;
    var ymax = v.vram;
    v.marks.forEach(function (m) { ymax = Math.max(ymax, m[5]); });
    v.samples.forEach(function (s) {
      var t = s[1] + s[2];
      for (var q = 1; q < s[0].length; q += 2) { t += s[0][q]; }
      ymax = Math.max(ymax, t);
    });
    if (h && h.requested != null && h.live != null) { ymax = Math.max(ymax, h.live + h.requested); }
    ymax *= 1.12;
    function y(b) { return memTop + MEM - b / ymax * MEM; }
    var paths = v.series.map(function () { return []; });
    var other = [], cached = [];
    v.samples.forEach(function (s, j) {
      var sp = g.span(j), a = f(sp[0]), b = f(sp[1]), acc = 0;
      function band(out, bytes) {
        if (bytes > 0) { out.push('M' + a + ' ' + f(y(acc + bytes)) + 'H' + b + 'V' + f(y(acc)) + 'H' + a + 'Z'); acc += bytes; }
      }
      for (var q = 0; q < s[0].length; q += 2) { band(paths[s[0][q]], s[0][q + 1]); }
      band(other, s[1]);
      band(cached, s[2]);
    });
    o.push('<rect class="lanebg odd" x="0" y="' + memTop + '" width="' + g.width + '" height="' + MEM + '"/>');
    o.push('<rect class="memhit" data-mem="1" x="' + LEFT + '" y="' + memTop + '" width="' + (right - LEFT) + '" height="' + MEM + '"/>');
    var legend = [];
    v.series.forEach(function (s, i) {
      var resident = s[0] === '';
      var lightness = resident ? 70 : 42 + ((roleIndex[s[0]] || 0) % 4) * 9;
      var col = resident ? 'hsl(210,15%,70%)' : 'hsl(' + hue(s[1]) + ',55%,' + lightness + '%)';
      if (paths[i].length) {
        o.push('<path shape-rendering="crispEdges" pointer-events="none" fill="' + col + '" d="' + paths[i].join('') + '"/>');
      }
      legend.push('<span><i style="background:' + col + '"></i>' + esc(s[2] + (s[3] ? ' kept' : '')) + '</span>');
    });
    if (other.length) {
      o.push('<path shape-rendering="crispEdges" pointer-events="none" fill="#8a8a8a" d="' + other.join('') + '"/>');
      legend.push('<span><i style="background:#8a8a8a"></i>live (not attributed)</span>');
    }
    if (cached.length) {
      o.push('<path shape-rendering="crispEdges" pointer-events="none" fill="#d6d6d6" d="' + cached.join('') + '"/>');
    }
    legend.push('<span><i style="background:#d6d6d6"></i>pool-cached</span>');
    var stripe = 'background:repeating-linear-gradient(45deg,#d40000 0 2px,#ffd9d9 2px 5px)';
    if (seen.handled) { legend.push('<span class="lg-oom-handled"><i style="background:#f0b400;outline:1px solid #6b4e00"></i>failed allocation, on oom handler</span>'); }
    if (seen.ignored) { legend.push('<span class="lg-oom-ignored"><i style="' + stripe + '"></i>failed allocation, on oom ignore</span>'); }
    if (seen.without) { legend.push('<span class="lg-without"><i style="' + stripe + ';outline:1px solid #d40000"></i>kernel ran without a buffer</span>'); }
    if (seen.choice) { legend.push('<span class="lg-choice"><i style="background:#b03a7a"></i>choose (path taken)</span>'); }
    o.push('<text x="8" y="' + (memTop + 14) + '">device memory</text>');
    o.push('<text class="axis" x="' + (LEFT - 6) + '" y="' + f(y(0)) + '" text-anchor="end">0</text>');

    // the violation: a band over its column, a marker above it, and a failed request on top of the live bytes
    var marker = null, request = null, reqLabel = ''; // the label goes over the vram line, drawn after it
    if (h) {
      var ov = h.verdict === 'OVERLAP';
      var j = bisect(v.marks, h.x), j0 = bisect(v.marks, h.fromX);
      if (j >= 0) {
        var sx = g.span(Math.max(0, j0))[0], ex = v.axis === 'transition' ? g.span(j)[1] : g.center(h.x) + 3;
        if (v.axis !== 'transition' && j0 === j) { sx = g.center(h.x) - 3; }
        o.push('<rect class="band' + (ov ? ' overlap' : '') + '" x="' + f(sx) + '" y="' + AXIS + '" width="' + f(Math.max(2, ex - sx)) + '" height="' + (memTop + MEM - AXIS) + '"/>');
        var cx = g.center(h.x);
        marker = [cx, AXIS - 4];
        o.push('<path class="marker' + (ov ? ' overlap' : '') + '" id="violation-marker-' + vi + '" d="M' + f(cx - 7) + ' ' + (AXIS - 13) + 'H' + f(cx + 7) + 'L' + f(cx) + ' ' + (AXIS + 1) + 'Z"/>');
        if (h.requested != null && h.live != null) {
          var rw = v.axis === 'transition' ? Math.max(3, COL - 6) : 8;
          var top = y(h.live + h.requested), bottom = y(h.live);
          request = [top, bottom];
          o.push('<rect class="request" id="request-' + vi + '" x="' + f(cx - rw / 2) + '" y="' + f(top) + '" width="' + f(rw) + '" height="' + f(bottom - top) + '"/>');
          reqLabel = '<text class="reqlabel" x="' + f(cx + rw / 2 + 4) + '" y="' + f(top + 11) + '">requested ' + size(h.requested) + '</text>';
        }
      }
    }
    o.push('<line class="vram" x1="' + LEFT + '" x2="' + right + '" y1="' + f(y(v.vram)) + '" y2="' + f(y(v.vram)) + '"/>');
    o.push('<text class="axis" x="' + (LEFT - 6) + '" y="' + f(y(v.vram) + 4) + '" text-anchor="end">vram ' + size(v.vram) + '</text>');
    if (reqLabel) { o.push(reqLabel); }
    if (v.divergence) {
      var dx = f(g.center(v.divergence.x));
      o.push('<line class="divergence" x1="' + dx + '" x2="' + dx + '" y1="' + AXIS + '" y2="' + (memTop + MEM) + '"/>');
      o.push('<text x="' + f(g.center(v.divergence.x) + 4) + '" y="' + (memTop - 2) + '" fill="#a24b00">model cannot follow from ' + v.divergence.index + '</text>');
    }

    var chart = document.getElementById('chart-' + vi);
    chart.innerHTML = '<svg class="trace" id="svg-' + vi + '" width="' + g.width + '" height="' + height + '">' + o.join('') + '</svg>';
    document.getElementById('legend-' + vi).innerHTML = legend.join('');
    var svg = chart.firstChild;
    var r = svg.getBoundingClientRect(), px = r.left + window.scrollX, py = r.top + window.scrollY;
    svg.setAttribute('data-col-left', f(px + LEFT));
    svg.setAttribute('data-col-width', v.axis === 'transition' ? COL : 0);
    svg.setAttribute('data-vram-y', f(py + y(v.vram)));
    if (marker) { svg.setAttribute('data-marker-x', f(px + marker[0])); svg.setAttribute('data-marker-y', f(py + marker[1])); }
    if (request) { svg.setAttribute('data-request-top', f(py + request[0])); svg.setAttribute('data-request-bottom', f(py + request[1])); }
    svg.addEventListener('mousemove', function (e) { hover(v, g, e); });
    svg.addEventListener('mouseleave', function () { tip.hidden = true; });
  }

  function lines(v, j) {
    var m = v.marks[j], s = v.samples[j], out = [];
    for (var q = 0; q < s[0].length; q += 2) { out.push(v.series[s[0][q]][2] + '=' + size(s[0][q + 1]) + (v.series[s[0][q]][3] ? ' kept' : '')); }
    if (s[1] > 0) { out.push('other live ' + size(s[1])); }
    return 'device after #' + m[2] + ': used ' + size(m[5]) + ', cached ' + size(m[6]) + (out.length ? '\nlive: ' + out.join(', ') : '');
  }

  function hover(v, g, e) {
    var t = e.target, text = null;
    if (t.hasAttribute('data-k')) {
      var k = +t.getAttribute('data-k'), m = v.marks[k];
      var pt = phaseText(v, m);
      text = '#' + m[2] + '  ' + v.lanes[m[1]][0] + (m[11] ? '  (after the violation)' : '') + '\n' + m[3] + (m[4] ? ' (' + m[4] + ')' : '') + (pt ? '\n' + pt : '')
        + (m[10] && m[10].length ? '\nran without ' + m[10].join(', ') + ' (its allocation failed and was ignored)' : '')
        + (v.axis === 'time' ? '\nat ' + (m[0] / 1e6).toFixed(3) + ' ms' : '') + '\n' + lines(v, k);
      if (m[7] && v.highlight && v.highlight.index === m[2]) { text += '\n' + v.highlight.verdict + ': ' + v.highlight.message; }
    } else if (t.hasAttribute('data-h')) {
      var h = v.holds[+t.getAttribute('data-h')];
      text = v.locks[h[0]] + ' held by ' + h[1] + (h[2] > 1 ? ' (' + h[2] + ' permits)' : '') + '\nfrom ' + where(v, h[3]) + (h[5] ? ' to the end' : ' to ' + where(v, h[4]));
    } else if (t.hasAttribute('data-b')) {
      var b = v.boxes[+t.getAttribute('data-b')];
      text = (b[2] ? 'kernel ' : 'cpu ') + b[1] + ' on ' + v.lanes[b[0]][0] + '\nfrom ' + where(v, b[3]) + (b[5] ? ' to the end' : ' to ' + where(v, b[4]))
        + (b[6] && b[6].length ? '\nran without ' + b[6].join(', ') + ' (its allocation failed and was ignored): its result is wrong' : '');
    } else if (t.hasAttribute('data-mem')) {
      var r = t.ownerSVGElement.getBoundingClientRect();
      var j = g.at(e.clientX - r.left);
      if (j >= 0) { text = lines(v, j); }
    }
    if (text === null) { tip.hidden = true; return; }
    tip.textContent = text;
    tip.hidden = false;
    tip.style.left = (e.pageX + 14) + 'px';
    tip.style.top = (e.pageY + 14) + 'px';
  }

  function where(v, x) {
    return v.axis === 'transition' ? 'transition ' + x : (x / 1e6).toFixed(3) + ' ms';
  }

  data.views.forEach(render);
  // milliseconds since navigation start: drawn into the DOM (laid out), then after the next frame (painted)
  document.body.setAttribute('data-rendered-ms', performance.now().toFixed(1));
  requestAnimationFrame(function () {
    setTimeout(function () { document.body.setAttribute('data-painted-ms', performance.now().toFixed(1)); }, 0);
  });
})();
