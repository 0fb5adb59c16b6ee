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

  /* 2. A box wider than the screen scrolls inside itself (a table, a display formula, an explorer's
        readout): marked .iaa-scrolls (a shadow on the side that has more) with a line above it,
        "scroll sideways", checked again when the window changes size and when MathJax is done. */
  const SCROLLERS = ".bd-article .pst-scrollable-table-container, .bd-article mjx-container[display='true'], " +
    ".bd-article .widget-html-content, .bd-article .iaa-static, .bd-article .tag_book-wide-figure .cell_output";
  const hintFor = (box) => {
    // a formula's hint goes above its div.math (beside the formula it would take its width)
    const anchor = box.parentElement.matches("div.math") ? box.parentElement : box;
    let hint = anchor.previousElementSibling;
    if (!hint || !hint.classList.contains("iaa-scroll-hint")) {
      hint = document.createElement("div");
      hint.className = "iaa-scroll-hint";
      hint.setAttribute("aria-hidden", "true");
      hint.textContent = "wider than the screen: scroll sideways \u2192";
      anchor.parentNode.insertBefore(hint, anchor);
      box.addEventListener("scroll", () => {
        box.classList.toggle("iaa-scrolled-end", box.scrollLeft + box.clientWidth >= box.scrollWidth - 2);
      }, { passive: true });
    }
    return hint;
  };
  const markScrollers = () => {
    document.querySelectorAll(SCROLLERS).forEach((box) => {
      if (box.parentElement && box.parentElement.closest(".iaa-scrolls")) return; // the outer box says it
      const wide = box.scrollWidth > box.clientWidth + 1;
      if (wide || box.classList.contains("iaa-scrolls")) {
        box.classList.toggle("iaa-scrolls", wide);
        hintFor(box).classList.toggle("iaa-shown", wide);
      }
    });
  };

  /* 3. Printing: every folded answer and folded code open on paper, closed again after. */
  let opened = [];
  window.addEventListener("beforeprint", () => {
    opened = Array.from(document.querySelectorAll("details:not([open])"));
    opened.forEach((d) => { d.open = true; });
  });
  window.addEventListener("afterprint", () => {
    opened.forEach((d) => { d.open = false; });
    opened = [];
  });

  const start = () => {
    forward(".primary-toggle");
    forward(".secondary-toggle");
    markScrollers();
    let pending = null;
    window.addEventListener("resize", () => {
      clearTimeout(pending);
      pending = setTimeout(markScrollers, 150);
    });
    // MathJax typesets a formula when it comes into view (lazy typesetting, book/conf.py): a display formula's
    // box changes size then, and is checked again
    if (window.ResizeObserver) {
      let again = null;
      const watch = new ResizeObserver(() => {
        clearTimeout(again);
        again = setTimeout(markScrollers, 50);
      });
      document.querySelectorAll(".bd-article div.math").forEach((box) => watch.observe(box));
    }
    const mathjax = () => window.MathJax && MathJax.startup && MathJax.startup.promise;
    if (mathjax()) {
      mathjax().then(markScrollers);
    } else {
      window.addEventListener("load", () => { if (mathjax()) mathjax().then(markScrollers); else markScrollers(); });
    }
  };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
