// Tables a reader can read (tools/check_book.py checks the result). A table wider than its column:
// 1. may break a long word where it joins two (after "/", "_", "-" or "–" between letters), never
//    inside a word or a number;
// 2. if still too wide, is set in a smaller font (0.9em, then 0.8em) when that makes it fit: a table
//    of sentences (a scorecard) then wraps within the column instead of scrolling in a box whose
//    scrollbar is pages below;
// 3. if still too wide and a table of the text (not a cell output), wraps in the column at a fixed
//    layout; a wide table of numbers keeps its size and scrolls in a scroll-box (marked wide-table), which
//    tables.css caps at the window's height, so its scrollbar is on screen with the table.
const JOINT = /(?<=\p{L}[\/_\-–])(?=[\p{L}(])/u;

function fits(table) {
  return table.getBoundingClientRect().width <= table.parentElement.clientWidth + 1;
}

function softBreaks(table) {
  const walker = document.createTreeWalker(table, NodeFilter.SHOW_TEXT);
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  for (const node of nodes) {
    const parts = node.textContent.split(JOINT);
    if (parts.length < 2) continue;
    const pieces = document.createDocumentFragment();
    parts.forEach((part, i) => {
      if (i) pieces.appendChild(document.createElement("wbr"));
      pieces.appendChild(document.createTextNode(part));
    });
    node.replaceWith(pieces);
  }
}

function fitWideTables() {
  for (const table of document.querySelectorAll("article table")) {
    if (table.dataset.fitted || fits(table)) continue;
    table.dataset.fitted = "yes";
    softBreaks(table);
    for (const size of ["0.9em", "0.8em"]) {
      if (fits(table)) break;
      table.style.fontSize = size;
    }
    if (!fits(table) && !table.closest(".cell_output")) {
      // a table of the text (reproduction notes: columns of quoted sentences) wraps in the column
      table.style.fontSize = "0.8em";
      table.style.tableLayout = "fixed";
      table.style.width = "100%";
      for (const cell of table.querySelectorAll("td, th")) cell.style.overflowWrap = "anywhere";
      for (const code of table.querySelectorAll("code, code span.pre")) {
        code.style.whiteSpace = "normal";
        code.style.wordBreak = "break-all";
      }
    }
    if (!fits(table)) table.style.fontSize = "";
  }
}

function markScrollBoxes() {
  for (const box of document.querySelectorAll("article .cell_output .output, article .pst-scrollable-table-container")) {
    if (box.querySelector("table") && box.scrollWidth > box.clientWidth + 1) box.classList.add("scroll-box");
  }
}

function readableTables() {
  fitWideTables();
  markScrollBoxes();
}

document.addEventListener("DOMContentLoaded", readableTables);
window.addEventListener("load", readableTables); // again once fonts and images have their sizes
// A fold opened by the reader shows tables that had no size while it was closed.
document.addEventListener("toggle", readableTables, true);
