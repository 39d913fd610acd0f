// The conformance page's filters (check/report/html.rs). Reads only data- attributes and writes
// only textContent, classes, styles and `hidden`: no report text is ever parsed as markup.
(function () {
  'use strict';
  var form = document.getElementById('filter-form');
  var clauseInput = document.getElementById('f-clause');
  var tagSelect = document.getElementById('f-tag');
  var engineSelect = document.getElementById('f-engine');
  var statusBoxes = Array.prototype.slice.call(document.querySelectorAll('#f-status input'));
  var shown = document.getElementById('shown');
  var results = Array.prototype.slice.call(document.querySelectorAll('#list tr.result')).map(function (el) {
    return {
      el: el,
      engine: el.dataset.engine,
      status: el.dataset.status,
      clauses: JSON.parse(el.dataset.clauses),
      tags: JSON.parse(el.dataset.tags)
    };
  });
  var rows = Array.prototype.slice.call(document.querySelectorAll('#heat tbody tr'));

  function heat(passed, run) {
    return run === 0 ? '#e4e4e4' : 'hsl(' + Math.round(120 * passed / run) + ', 65%, 72%)';
  }
  // A clause filter matches the clause itself and the clauses under it (701.23 → 701.23a).
  function clauseMatches(filter, clause) {
    return filter === '' || clause === filter || clause.indexOf(filter) === 0;
  }

  function apply() {
    var clause = clauseInput.value.trim();
    var tag = tagSelect.value;
    var engine = engineSelect.value;
    var statuses = {};
    statusBoxes.forEach(function (b) { statuses[b.value] = b.checked; });
    // Everything but the clause filter: the matrix shows each of its clauses under the others.
    function keep(r) {
      return statuses[r.status] && (tag === '' || r.tags.indexOf(tag) >= 0);
    }
    var visible = 0;
    results.forEach(function (r) {
      var show = keep(r) && (engine === '' || r.engine === engine) &&
        r.clauses.some(function (c) { return clauseMatches(clause, c); });
      r.el.hidden = !show;
      if (show) { visible += 1; }
    });
    shown.textContent = visible + ' of ' + results.length + ' results shown';
    rows.forEach(function (row) {
      var c = row.dataset.clause;
      var any = false;
      Array.prototype.forEach.call(row.querySelectorAll('td.cell'), function (cell) {
        var passed = 0, run = 0, all = 0;
        results.forEach(function (r) {
          if (r.engine !== cell.dataset.engine || !keep(r) || r.clauses.indexOf(c) < 0) { return; }
          all += 1;
          if (r.status === 'PASS') { passed += 1; }
          if (r.status !== 'UNSUPPORTED' && r.status !== 'INVALID') { run += 1; }
        });
        if (all > 0) { any = true; }
        cell.textContent = all === 0 ? '·' : passed + '/' + run;
        cell.style.background = heat(passed, run);
      });
      row.hidden = !any || !clauseMatches(clause, c);
    });
    document.documentElement.dataset.shown = String(visible);
  }

  form.addEventListener('input', apply);
  form.addEventListener('change', apply);
  // A reset changes the controls after the event: filter once they are back to their defaults.
  form.addEventListener('reset', function () { setTimeout(apply, 0); });
  rows.forEach(function (row) {
    row.addEventListener('click', function (event) {
      var cell = event.target.closest('td.cell');
      if (!cell) { return; }
      clauseInput.value = row.dataset.clause;
      engineSelect.value = cell.dataset.engine;
      form.dispatchEvent(new Event('change'));
      document.getElementById('results').scrollIntoView();
    });
  });

  // Filters can be given in the address: #clause=701.23&status=FAIL,ERROR&tag=…&engine=0 (the
  // controls are set as a reader would set them, then the same events fire).
  var params = new URLSearchParams(location.hash.slice(1));
  if (params.has('clause')) { clauseInput.value = params.get('clause'); }
  if (params.has('tag')) { tagSelect.value = params.get('tag'); }
  if (params.has('engine')) { engineSelect.value = params.get('engine'); }
  if (params.has('status')) {
    var wanted = params.get('status').split(',');
    statusBoxes.forEach(function (b) { b.checked = wanted.indexOf(b.value) >= 0; });
  }
  form.dispatchEvent(new Event('change'));
  if (params.has('open')) {
    Array.prototype.forEach.call(document.querySelectorAll('#list tr.result:not([hidden]) details.fail'),
      function (d) { d.open = true; });
  }
  document.documentElement.dataset.ready = 'yes';
}());
