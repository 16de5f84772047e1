// Checks an HTML report as laid out by the browser, after the page has loaded; the result is
// written as JSON into a pre element (id assay-check-result) for `chromium --dump-dom` to carry out.
// Problems: errors caught on the page (see report_check_head.html), a blank page, the page or
// a chart wider than the window, a chart text outside its chart, and two texts of one chart
// that overlap (each text's box is taken in its own coordinates, rotated labels included, and
// mapped to the screen, so two rotated labels side by side do not count as overlapping).
(function () {
  const problems = [];
  for (const e of window.__assayErrors || []) problems.push('page error: ' + e);
  const body = document.body;
  const visible = body ? body.innerText.replace(/\s+/g, ' ').trim() : '';
  if (visible.length < 40) problems.push('blank page: ' + visible.length + ' characters of text');
  const root = document.documentElement;
  if (root.scrollWidth > window.innerWidth + 1) {
    problems.push('page wider than the window: ' + root.scrollWidth + ' > ' + window.innerWidth);
  }
  // The four corners of an element's box on the screen.
  const quad = (el) => {
    const b = el.getBBox();
    const m = el.getScreenCTM();
    const pt = (x, y) => ({x: m.a * x + m.c * y + m.e, y: m.b * x + m.d * y + m.f});
    // Glyph boxes include the line's leading; 1 px in from every side.
    const i = Math.min(1, b.width / 4, b.height / 4);
    return [pt(b.x + i, b.y + i), pt(b.x + b.width - i, b.y + i),
            pt(b.x + b.width - i, b.y + b.height - i), pt(b.x + i, b.y + b.height - i)];
  };
  // Separating-axis test for two convex quadrilaterals.
  const overlap = (p, q) => {
    for (const poly of [p, q]) {
      for (let k = 0; k < 4; ++k) {
        const a = poly[k], b = poly[(k + 1) % 4];
        const nx = b.y - a.y, ny = a.x - b.x;
        const proj = (s) => s.map((v) => v.x * nx + v.y * ny);
        const pp = proj(p), qq = proj(q);
        if (Math.max(...pp) <= Math.min(...qq) || Math.max(...qq) <= Math.min(...pp)) return false;
      }
    }
    return true;
  };
  let charts = 0, labels = 0;
  document.querySelectorAll('svg').forEach((svg, si) => {
    ++charts;
    const title = (svg.querySelector('text') || {}).textContent || '(untitled)';
    const name = 'chart ' + (si + 1) + ' "' + title + '"';
    const box = svg.getBoundingClientRect();
    if (box.width < 20 || box.height < 20) problems.push(name + ' has no size');
    if (box.right > window.innerWidth + 1) {
      problems.push(name + ' runs off the page: right edge ' + Math.round(box.right) + ' > ' +
                    window.innerWidth);
    }
    const texts = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim() !== '');
    const quads = texts.map(quad);
    labels += texts.length;
    texts.forEach((t, k) => {
      for (const v of quads[k]) {
        if (v.x < box.left - 1 || v.x > box.right + 1 || v.y < box.top - 1 || v.y > box.bottom + 1) {
          problems.push(name + ': text "' + t.textContent + '" lies outside the chart');
          break;
        }
      }
    });
    let reported = 0;
    for (let a = 0; a < texts.length; ++a) {
      for (let b = a + 1; b < texts.length; ++b) {
        if (!overlap(quads[a], quads[b])) continue;
        if (++reported <= 5) {
          problems.push(name + ': texts overlap: "' + texts[a].textContent + '" and "' +
                        texts[b].textContent + '"');
        }
      }
    }
    if (reported > 5) problems.push(name + ': ' + (reported - 5) + ' more overlapping pairs');
  });
  const out = document.createElement('pre');
  out.id = 'assay-check-result';
  out.textContent = JSON.stringify({problems, charts, labels, height: root.scrollHeight, tables:
                                    document.querySelectorAll('table').length});
  document.body.appendChild(out);
})();
