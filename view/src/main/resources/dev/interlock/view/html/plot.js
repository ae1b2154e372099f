// The plot is drawn by the page itself (inline SVG); this script only records where each point landed on the page
// (data-px, data-py: its mark's centre in page pixels), for tools and tests that read a screenshot.
(function () {
  document.querySelectorAll("svg.plot .point").forEach(function (g) {
    var r = g.querySelector(".mark").getBoundingClientRect();
    g.setAttribute("data-px", (r.left + r.width / 2 + window.scrollX).toFixed(1));
    g.setAttribute("data-py", (r.top + r.height / 2 + window.scrollY).toFixed(1));
  });
  document.body.setAttribute("data-plotted", "true");
})();
