// SPDX-License-Identifier: Apache-2.0
// Geometry checks on a copy of an HTML report (check_html_report.sh adds
// this script to the copy; the report itself does no layout work): opens
// every <details>, then records on <body>
//   data-labels    the text labels laid out in the charts' SVGs;
//   data-overlaps  the pairs of labels in one SVG whose boxes intersect,
//                  and data-overlap-list the first few, for the message;
//   data-outside   the labels that reach past their SVG's box;
//   data-wide      the elements that reach past the window's width;
//   data-geometry  "1" once done.
(function () {
  document.querySelectorAll('details').forEach(function (d) { d.open = true; });
  var width = document.documentElement.clientWidth, wide = 0;
  document.querySelectorAll('body *').forEach(function (e) {
    if (e.getBoundingClientRect().right > width + 1) wide++;
  });
  var labels = 0, overlaps = 0, outside = 0, list = [];
  function name(t) {
    var svg = t.closest('details, figure');
    return (svg && svg.id ? svg.id + ': ' : '') + JSON.stringify(t.textContent);
  }
  document.querySelectorAll('svg').forEach(function (svg) {
    var frame = svg.getBoundingClientRect();
    var boxes = [];
    svg.querySelectorAll('text').forEach(function (t) {
      if (getComputedStyle(t).display === 'none') return;
      var r = t.getBoundingClientRect();
      if (r.width === 0) return;
      labels++;
      if (r.left < frame.left - 0.5 || r.right > frame.right + 0.5 || r.top < frame.top - 0.5 ||
          r.bottom > frame.bottom + 0.5) {
        outside++;
        if (list.length < 8) list.push('outside: ' + name(t));
      }
      boxes.push({t: t, r: r});
    });
    for (var i = 0; i < boxes.length; i++) {
      for (var j = i + 1; j < boxes.length; j++) {
        var a = boxes[i].r, b = boxes[j].r;
        if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 &&
            b.top < a.bottom - 0.5) {
          overlaps++;
          if (list.length < 8) list.push(name(boxes[i].t) + ' over ' + name(boxes[j].t));
        }
      }
    }
  });
  var body = document.body;
  body.setAttribute('data-labels', String(labels));
  body.setAttribute('data-overlaps', String(overlaps));
  body.setAttribute('data-outside', String(outside));
  body.setAttribute('data-overlap-list', list.join(' | '));
  body.setAttribute('data-wide', String(wide));
  body.setAttribute('data-geometry', '1');
})();
