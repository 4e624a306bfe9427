import { escapeHtml } from './escape.js';

/**
 * The page's only script, written for this page: it turns the headers of each
 * `table[data-sortable]` into sort buttons (numbers by their `data-value`,
 * text otherwise, "-" cells last either way) and shows the filter box of each
 * `[data-table-controls]`, which hides the rows that do not contain the typed
 * text. Without it the tables still list every row, in report order.
 */
export const TABLE_SCRIPT = `(function () {
  'use strict';
  function each(list, action) { Array.prototype.forEach.call(list, action); }
  function sortKey(row, column) {
    var cell = row.cells[column];
    if (!cell) return null;
    var number = cell.getAttribute('data-value');
    if (number !== null) return Number(number);
    var text = cell.textContent.trim();
    return text === '-' || text === '' ? null : text;
  }
  function compare(left, right) {
    if (typeof left === 'number' && typeof right === 'number') return left - right;
    return String(left).localeCompare(String(right), undefined, { numeric: true });
  }
  each(document.querySelectorAll('table[data-sortable]'), function (table) {
    var body = table.tBodies[0];
    var headers = table.tHead.rows[0].cells;
    each(headers, function (header, column) {
      var button = document.createElement('button');
      button.type = 'button';
      button.className = 'sort';
      while (header.firstChild) button.appendChild(header.firstChild);
      header.appendChild(button);
      button.addEventListener('click', function () {
        var ascending = header.getAttribute('aria-sort') !== 'ascending';
        each(headers, function (other) { other.removeAttribute('aria-sort'); });
        header.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (left, right) {
          var a = sortKey(left, column);
          var b = sortKey(right, column);
          if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
          return ascending ? compare(a, b) : compare(b, a);
        });
        each(rows, function (row) { body.appendChild(row); });
      });
    });
  });
  each(document.querySelectorAll('[data-table-controls]'), function (controls) {
    var table = document.getElementById(controls.getAttribute('data-table-controls'));
    var input = controls.querySelector('input');
    var count = controls.querySelector('output');
    if (!table || !input || !count) return;
    var rows = table.tBodies[0].rows;
    function apply() {
      var needle = input.value.trim().toLowerCase();
      var shown = 0;
      each(rows, function (row) {
        var match = needle === '' || row.textContent.toLowerCase().indexOf(needle) !== -1;
        row.hidden = !match;
        if (match) shown += 1;
      });
      count.textContent = shown + ' of ' + rows.length + ' rows shown';
    }
    input.addEventListener('input', apply);
    controls.hidden = false;
    apply();
  });
})();`;

/** The filter box of a table, hidden until the script runs (a box that filters nothing would mislead). */
export function tableControls(tableId: string, label: string): string {
  const inputId = `${tableId}-filter`;
  return (
    `<div class="table-controls" data-table-controls="${escapeHtml(tableId)}" hidden>` +
    `<label for="${escapeHtml(inputId)}">${escapeHtml(label)}</label> ` +
    `<input type="search" id="${escapeHtml(inputId)}" autocomplete="off" spellcheck="false" placeholder="any text in the row"> ` +
    '<output aria-live="polite"></output> <span class="note">Click a column header to sort.</span></div>'
  );
}
