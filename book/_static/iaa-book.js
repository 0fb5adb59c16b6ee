/* The static book's own script (book/conf.py loads it on every page).

   1. The lesson-list and page-contents buttons. pydata-sphinx-theme 0.20 puts its own
      (hidden) .primary-toggle and .secondary-toggle buttons in its header, and binds the
      drawers to the FIRST of each (document.querySelector): the buttons a reader sees,
      sphinx-book-theme's in the article header, get no listener, so on a phone or tablet
      a tap only shows a tooltip, and on a desktop the menu does not collapse the sidebar
      (pydata-sphinx-theme issue #2451, sphinx-book-theme issue #988, open in 2026-12).
      Until upstream fixes it, a tap on any other toggle clicks the first one, whose
      listeners do the right thing at each width: a drawer (a <dialog>) below 992 px,
      the sidebar collapsed above (sphinx-book-theme's own capture listener).
      Once upstream binds every toggle, this does nothing: a button that already is the
      first is left alone, and tests/test_browser_book.py checks the drawers open.
*/
(() => {
  "use strict";
  const forward = (selector) => {
    const all = Array.from(document.querySelectorAll(selector));
    const first = all[0];
    all.slice(1).forEach((button) => {
      button.addEventListener("click", (event) => {
        event.preventDefault();
        event.stopPropagation();
        first.click();
      });
    });
  };
  const start = () => {
    forward(".primary-toggle");
    forward(".secondary-toggle");
  };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
