"""The readability checks of browser_check.py: what the page holds at a 1280 × 800 viewport, gathered by
READABLE_FACTS in the page, judged here one line per check, and the screenshots of the first screen and of
each chart. They check the HTML contract the report keeps for them (issue 17):
- one <section id="answer"> holds the answer, fully within the first 1280 × 800 screen, and, for one
  machine, the money answer below it (<section id="money">'s first table outside a <details>, else its first
  paragraph) ends within it too;
- the main table is <table data-table="ladder"> (one per machine at most), with no horizontal scroll at
  1280 px;
- every chart is an <svg data-chart="ID">; each series a <g class="series" data-series="NAME"> that says how
  it is drawn: data-color="#rrggbb", data-marker (circle, square, triangle, diamond, cross, plus,
  triangle-down, star or none) and data-dash (solid, a stroke-dasharray value, or none: no line); its line
  drawn with that stroke and dash, its points with class "point", data-shape = the marker and that colour;
  no two series of a chart alike in all three (a label's leader line, class "leader", is not the series'
  drawing);
- every .point has a <title> with its figures; labels of points are text.point-label, the labels at the
  ends of lines text.end-label; no two <text> of a chart overlap, and no such label covers a .point;
- a label away from its point is joined to it by a line.leader, written just before the label's <text>: no
  leader crosses a <text> other than its own label, nor another leader.
"""
import base64
import pathlib

VIEWPORT = {"width": 1280, "height": 800}
TOLERANCE = 0.5  # px: boxes that touch, or overlap by less, do not overlap
READABLE = ("answer", "labels", "series", "tables", "titles")

# Runs in the page at the 1280 × 800 viewport, scrolled to the top: the facts the readability checks judge
# (the contract above). Boxes are in page coordinates (CSS px); names are quoted with
# JSON.stringify, never built into a selector.
READABLE_FACTS = """(async () => {
  await document.fonts.ready;
  window.scrollTo(0, 0);
  const tolerance = %s;
  const quote = text => JSON.stringify(text.length > 60 ? text.slice(0, 57) + '...' : text);
  const box = element => {
    const r = element.getBoundingClientRect();
    return {left: r.left + window.scrollX, top: r.top + window.scrollY, right: r.right + window.scrollX,
            bottom: r.bottom + window.scrollY, width: r.width, height: r.height};
  };
  const overlap = (a, b) => {
    const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    return x > tolerance && y > tolerance ? [x, y] : null;
  };
  const by = (a, b) => `by ${a.toFixed(1)}×${b.toFixed(1)} px`;
  const label = text => {  // where it is in the chart's source, else on the page
    const [x, y] = text.hasAttribute('x') ? [text.getAttribute('x'), text.getAttribute('y')]
                                          : [box(text).left.toFixed(0), box(text).top.toFixed(0)];
    return `${quote(text.textContent.trim())} at (${x}, ${y})`;
  };
  const hex = colour => {
    const parts = /rgba?\\(([^)]*)\\)/.exec(colour || '');
    if (!parts) return colour === 'none' || !colour ? 'none' : colour;
    const [r, g, b, a] = parts[1].split(',').map(Number);
    if (a === 0) return 'none';
    return '#' + [r, g, b].map(v => v.toString(16).padStart(2, '0')).join('');
  };
  const dashes = element => {
    const value = getComputedStyle(element).strokeDasharray;
    const numbers = (value || '').match(/[0-9.]+/g);
    return !numbers || value === 'none' || numbers.every(n => Number(n) === 0) ? 'solid'
                                                                              : numbers.map(Number).join(' ');
  };
  const declaredDash = value => {
    if (value === null || value === 'solid' || value === 'none') return value;
    const numbers = value.match(/[0-9.]+/g);
    return numbers ? numbers.map(Number).join(' ') : value;
  };
  const result = {viewport: [window.innerWidth, window.innerHeight],
                  scroll_width: document.documentElement.scrollWidth, charts: []};

  const answers = [...document.querySelectorAll('section#answer')];
  result.answer = {count: answers.length};
  if (answers.length) {
    Object.assign(result.answer, box(answers[0]));
    result.answer.text = answers[0].innerText.trim().length;
  }

  const usage = [...document.querySelectorAll('section#money table')].filter(table => !table.closest('details'));
  const money = usage[0] || document.querySelector('section#money p');
  result.money = money ? Object.assign(box(money), {machines: Math.max(usage.length, 1)}) : null;

  result.tables = [...document.querySelectorAll('table[data-table="ladder"]')].map((table, index) => {
    const b = box(table);
    return {index, left: b.left, right: b.right, columns: table.rows.length ? table.rows[0].cells.length : 0};
  });

  for (const svg of document.querySelectorAll('svg[data-chart]')) {
    const chart = {id: svg.getAttribute('data-chart'), box: box(svg), overlaps: [], covers: [], texts: 0,
                   series: [], lies: [], alike: [], points: 0, untitled: []};
    const texts = [...svg.querySelectorAll('text')].filter(text => text.textContent.trim() !== '')
                                                   .map(text => ({text, box: box(text)}))
                                                   .filter(t => t.box.width > 0 && t.box.height > 0);
    chart.texts = texts.length;
    for (let i = 0; i < texts.length; ++i)
      for (let j = i + 1; j < texts.length; ++j) {
        const o = overlap(texts[i].box, texts[j].box);
        if (o)
          chart.overlaps.push(`texts ${label(texts[i].text)} and ${label(texts[j].text)} overlap ${by(...o)}`);
      }
    const points = [...svg.querySelectorAll('.point')];
    chart.points = points.length;
    const pointName = point => {
      const title = point.querySelector(':scope > title');
      const series = point.closest('g.series');
      if (title && title.textContent.trim()) return quote(title.textContent.trim());
      const of = series ? ` of series ${quote(series.getAttribute('data-series') || '')}` : '';
      return `#${points.indexOf(point) + 1}${of}`;
    };
    const labels = texts.filter(t => t.text.matches('.point-label, .end-label'));
    chart.labels = labels.length;
    for (const l of labels)
      for (const point of points) {
        const o = overlap(l.box, box(point));
        if (o) chart.covers.push(`label ${label(l.text)} overlaps point ${pointName(point)} ${by(...o)}`);
      }
    // Leader lines (line.leader), each followed by the text it leads to: none may cross another text or
    // another leader. Their ends in page coordinates, as the texts' boxes are.
    const toPage = (element, x, y) => {
      const p = new DOMPoint(x, y).matrixTransform(element.getScreenCTM());
      return [p.x + window.scrollX, p.y + window.scrollY];
    };
    const leaders = [...svg.querySelectorAll('line.leader')].map(line => {
      const at = name => Number(line.getAttribute(name));
      const next = line.nextElementSibling;
      return {own: next && next.tagName.toLowerCase() === 'text' ? next : null,
              a: toPage(line, at('x1'), at('y1')), b: toPage(line, at('x2'), at('y2'))};
    });
    chart.leaders = leaders.length;
    const through = (l, r) => {  // the segment enters the box shrunk by the tolerance (Liang–Barsky)
      const [dx, dy] = [l.b[0] - l.a[0], l.b[1] - l.a[1]];
      let [t0, t1] = [0, 1];
      for (const [p, q] of [[-dx, l.a[0] - r.left - tolerance], [dx, r.right - tolerance - l.a[0]],
                            [-dy, l.a[1] - r.top - tolerance], [dy, r.bottom - tolerance - l.a[1]]]) {
        if (p === 0) {
          if (q < 0) return false;
        } else if (p < 0) {
          t0 = Math.max(t0, q / p);
        } else {
          t1 = Math.min(t1, q / p);
        }
      }
      return t1 - t0 > 1e-9;
    };
    const side = (a, b, c) =>  // which side of a→b c lies on; 0 on the line (touching ends do not cross)
        Math.sign(Math.round(((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) * 1e6));
    const cross = (l, m) => side(l.a, l.b, m.a) * side(l.a, l.b, m.b) < 0 &&
                            side(m.a, m.b, l.a) * side(m.a, m.b, l.b) < 0;
    const leaderName = l => `the leader of ${l.own ? label(l.own) : 'no text'}`;
    chart.crossings = [];
    for (let i = 0; i < leaders.length; ++i) {
      for (const t of texts)
        if (t.text !== leaders[i].own && through(leaders[i], t.box))
          chart.crossings.push(`${leaderName(leaders[i])} crosses text ${label(t.text)}`);
      for (let j = i + 1; j < leaders.length; ++j)
        if (cross(leaders[i], leaders[j]))
          chart.crossings.push(`${leaderName(leaders[i])} crosses ${leaderName(leaders[j])}`);
    }
    for (const point of points) {
      const title = point.querySelector(':scope > title');
      if (!title || !title.textContent.trim())
        chart.untitled.push(`point ${pointName(point)} (<${point.tagName}>) has no title`);
    }

    for (const group of svg.querySelectorAll('g.series')) {
      const name = group.getAttribute('data-series') || '';
      const lines = [...group.querySelectorAll('path, line, polyline')].filter(element =>
          !element.closest('.point') && !element.closest('.mark') && !element.closest('.end-label') &&
          !element.closest('.leader') &&
          hex(getComputedStyle(element).stroke) !== 'none');
      const marks = [...group.querySelectorAll('.point')];
      const markColour = point => {
        const style = getComputedStyle(point);
        return hex(style.fill) !== 'none' ? hex(style.fill) : hex(style.stroke);
      };
      const strokes = [...new Set(lines.map(line => hex(getComputedStyle(line).stroke)))];
      const lineDashes = [...new Set(lines.map(dashes))];
      const shapes = [...new Set(marks.map(point => point.getAttribute('data-shape') || '(no data-shape)'))];
      const markColours = [...new Set(marks.map(markColour))];
      const drawn = {colour: strokes.length ? strokes.join('/') : markColours.join('/') || 'none',
                     marker: shapes.length ? shapes.join('/') : 'none',
                     dash: lines.length ? lineDashes.join('/') : 'none'};
      const declared = {colour: group.getAttribute('data-color'), marker: group.getAttribute('data-marker'),
                        dash: declaredDash(group.getAttribute('data-dash'))};
      const who = `series ${quote(name)}`;
      const lies = [];
      const undeclared = Object.entries({colour: 'data-color', marker: 'data-marker', dash: 'data-dash'})
                               .filter(([key]) => declared[key] === null).map(([, attribute]) => attribute);
      if (undeclared.length) lies.push(`declares no ${undeclared.join(', ')}`);
      if (declared.colour !== null &&
          [drawn.colour, ...markColours].some(colour => colour !== declared.colour.toLowerCase())) {
        const colours = [...new Set([...strokes, ...markColours])].join(', ') || 'nothing';
        lies.push(`declares data-color ${declared.colour} but draws ${colours}`);
      }
      if (declared.marker !== null && declared.marker !== drawn.marker &&
          !(declared.marker === 'none' && shapes.every(shape => shape === 'none')))
        lies.push(`declares data-marker ${declared.marker} but draws ` +
                  (drawn.marker === 'none' ? 'no marker' : 'markers ' + drawn.marker));
      if (declared.dash !== null && declared.dash !== drawn.dash)
        lies.push(`declares data-dash ${group.getAttribute('data-dash')} but draws ` +
                  (drawn.dash === 'none' ? 'no line' : 'a line ' + drawn.dash));
      if (!lines.length && !marks.length) lies.push('draws neither a line nor a .point');
      if (lies.length) chart.lies.push(`${who} ${lies.join(', ')}`);
      chart.series.push({name, drawn});
    }
    for (let i = 0; i < chart.series.length; ++i)
      for (let j = i + 1; j < chart.series.length; ++j) {
        const [a, b] = [chart.series[i], chart.series[j]];
        if (['colour', 'marker', 'dash'].every(key => a.drawn[key] === b.drawn[key]))
          chart.alike.push(`series ${quote(a.name)} and ${quote(b.name)} look the same ` +
                           `(colour ${a.drawn.colour}, marker ${a.drawn.marker}, dash ${a.drawn.dash})`);
      }
    result.charts.push(chart);
  }
  return result;
})()"""


def shown(items, limit=8):
    """A failure's details: the first `limit`, and how many more."""
    return "; ".join(items[:limit]) + (f"; and {len(items) - limit} more" if len(items) > limit else "")


def readable_checks(args, facts, report):
    """One line per check (and per chart for the chart checks), from READABLE_FACTS' findings."""
    width, height = facts["viewport"]
    charts = facts["charts"]
    if any(args.check.get(name) for name in ("labels", "series", "titles")):
        report.check(bool(charts), f"charts on the page: {len(charts)} svg[data-chart] "
                     f"at the {width}×{height} viewport")

    if args.check.get("answer"):
        answer = facts["answer"]
        if answer["count"] != 1:
            report.check(False, f"answer: {answer['count']} section#answer elements on the page (one expected)")
        else:
            inside = (answer["top"] >= 0 and answer["left"] >= 0 and answer["bottom"] <= height + TOLERANCE
                      and answer["right"] <= width + TOLERANCE)
            where = (f"top {answer['top']:.0f}, bottom {answer['bottom']:.0f}, left {answer['left']:.0f}, "
                     f"right {answer['right']:.0f} px")
            if answer["height"] <= 0 or answer["text"] == 0:
                report.check(False, f"answer: section#answer is empty ({where})")
            else:
                report.check(inside, f"answer: section#answer {'lies within' if inside else 'is not within'} "
                             f"the first {width}×{height} screen ({where})")
        money = facts.get("money")
        if money is not None and money["machines"] > 1:  # one usage table a machine, below their answer table
            print(f"note: the money answers of {money['machines']} machines are not held to the first screen "
                  f"(one machine's is)")
        elif money is not None:
            above = money["bottom"] <= height + TOLERANCE
            report.check(above, f"answer: the money answer (section#money's first table or paragraph) ends at "
                         f"{money['bottom']:.0f} px, {'within' if above else 'below'} the first {height} px")

    if args.check.get("tables"):
        tables = facts["tables"]
        report.check(bool(tables), f"ladder tables: {len(tables)} table[data-table=\"ladder\"] on the page")
        for table in tables:
            fits = table["right"] <= width + TOLERANCE and table["left"] >= 0
            report.check(fits, f"ladder table #{table['index'] + 1} ({table['columns']} columns) "
                         f"{'fits' if fits else 'is too wide'}: left {table['left']:.0f}, right "
                         f"{table['right']:.0f} px, viewport {width} px")
        scrolls = facts["scroll_width"] > width
        report.check(not scrolls, f"page width: document scrollWidth {facts['scroll_width']} px "
                     f"{'exceeds' if scrolls else 'within'} the {width} px viewport"
                     f"{' (horizontal scroll)' if scrolls else ''}")

    if args.check.get("labels"):
        for chart in charts:
            problems = chart["overlaps"] + chart["covers"] + chart["crossings"]
            report.check(not problems and chart["texts"] > 0,
                         f"labels of chart {chart['id']}: " + (shown(problems) if problems else
                         f"{chart['texts']} texts, {chart['labels']} point/end labels, no overlap; "
                         f"{chart['leaders']} leader lines, none crossing another text or leader"
                         if chart["texts"] else "no text at all (a chart without labels)"))

    if args.check.get("series"):
        report.check(any(chart["series"] for chart in charts),
                     f"series: {sum(len(chart['series']) for chart in charts)} g.series in all the charts")
        for chart in (chart for chart in charts if chart["series"]):
            problems = chart["alike"] + chart["lies"]
            report.check(not problems, f"series of chart {chart['id']}: " + (shown(problems) if problems else
                         f"{len(chart['series'])} series, each told apart by colour, marker or dash, "
                         f"each drawn as it declares"))

    if args.check.get("titles"):
        points = sum(chart["points"] for chart in charts)
        report.check(points > 0, f"points: {points} .point elements in all the charts")
        for chart in (chart for chart in charts if chart["points"]):
            report.check(not chart["untitled"], f"titles of chart {chart['id']}: " +
                         (shown(chart["untitled"]) if chart["untitled"] else
                          f"all {chart['points']} points have a <title>"))


def file_name(chart_id, taken):
    """chart-ID.png, the id kept to letters, digits, '.', '_' and '-', unique among `taken`."""
    stem = "chart-" + ("".join(c if c.isalnum() or c in "._-" else "_" for c in chart_id) or "_")
    name, number = stem + ".png", 1
    while name in taken:
        number += 1
        name = f"{stem}-{number}.png"
    taken.add(name)
    return name


def capture(devtools, session, clip, path):
    shot = devtools.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                    "clip": {**clip, "scale": 1}}, session=session)
    png = base64.b64decode(shot["data"])
    path.write_bytes(png)
    return png.startswith(b"\x89PNG") and len(png) > 100


def screenshots(args, devtools, session, facts, report):
    folder = pathlib.Path(args.screenshots)
    folder.mkdir(parents=True, exist_ok=True)
    width, height = facts["viewport"]
    first = folder / "first-screen.png"
    report.check(capture(devtools, session, {"x": 0, "y": 0, "width": width, "height": height}, first),
                 f"screenshot {first} ({width}×{height} px, the first screen)")
    taken = set()
    for chart in facts["charts"]:
        b = chart["box"]
        if b["width"] <= 0 or b["height"] <= 0:
            report.check(False, f"screenshot of chart {chart['id']}: it has no size")
            continue
        path = folder / file_name(chart["id"], taken)
        report.check(capture(devtools, session, {"x": b["left"], "y": b["top"], "width": b["width"],
                                                  "height": b["height"]}, path),
                     f"screenshot {path} ({b['width']:.0f}×{b['height']:.0f} px, chart {chart['id']})")

