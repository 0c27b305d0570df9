// What tests/browser/test_every_page.py asks of a page, measured in the page itself.
// Returns {overflow, sheet, images, tofu, broken, text}. Contrast, labels, landmarks and the
// rest of WCAG 2.1 A and AA are axe-core's (test_every_page.py runs it beside this).
(() => {
  const doc = document.documentElement;
  const out = {};
  // 1. The document never scrolls sideways (a wide table or bracket scrolls in its own box).
  out.overflow = doc.scrollWidth > doc.clientWidth + 1
    ? [`document is ${doc.scrollWidth}px wide in a ${doc.clientWidth}px window: ` +
       [...document.querySelectorAll("body *")].filter((e) => {
         const r = e.getBoundingClientRect();
         return r.right > doc.clientWidth + 1 && getComputedStyle(e).position !== "fixed" &&
           !e.closest(".scroll-x, .bracket-wrap, .table-wrap");
       }).slice(0, 4).map((e) => e.tagName.toLowerCase() + (e.className && typeof e.className === "string" ? "." + e.className.split(" ").join(".") : "") + " →" + Math.round(e.getBoundingClientRect().right)).join(", ")]
    : [];
  // 1b. A game's score sheet shows both scores without scrolling its box sideways (unless
  //     it sits in a box made to scroll, .scroll-x: the organiser's sheet with its column of
  //     links to correct a hand).
  out.sheet = [...document.querySelectorAll("table.grid.sheet")]
    .filter((t) => t.getClientRects().length && !t.closest(".scroll-x"))
    .filter((t) => t.scrollWidth > t.clientWidth + 1)
    .map((t) => `score sheet is ${t.scrollWidth}px wide in its ${t.clientWidth}px box`);
  // 2. Every image loaded.
  out.images = [...document.images].filter((i) => i.complete && i.naturalWidth === 0 && i.src)
    .map((i) => "broken image " + i.src);
  // 3. No glyph drawn as the "missing glyph" box: each non-ASCII character of the page is drawn
  //    in its element's font next to a character no font has; the same pixels mean a box.
  const canvas = document.createElement("canvas");
  canvas.width = 64; canvas.height = 64;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  const draw = (ch, font) => {
    ctx.clearRect(0, 0, 64, 64); ctx.font = font; ctx.fillStyle = "#000"; ctx.textBaseline = "top";
    ctx.fillText(ch, 4, 4); return ctx.getImageData(0, 0, 64, 64).data.join(",");
  };
  const fonts = new Map();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const texts = [];
  while (walker.nextNode()) {
    const node = walker.currentNode, el = node.parentElement;
    if (!el || !node.textContent.trim()) continue;
    const style = getComputedStyle(el);
    if (style.display === "none" || style.visibility === "hidden" || el.closest("script,style,template,[hidden]")) continue;
    if (!el.getClientRects().length) continue;
    if (!el.closest("code")) texts.push(node.textContent.replace(/\s+/g, " ").trim()); // a column, a code: as typed
    const font = `${style.fontStyle} ${style.fontWeight} 32px ${style.fontFamily}`;
    for (const ch of node.textContent) {
      if (ch.charCodeAt(0) < 128 || /\s/.test(ch)) continue;
      if (!fonts.has(font)) fonts.set(font, new Set());
      fonts.get(font).add(ch);
    }
  }
  // Marks drawn by CSS (the "after time" mark of a score sheet's row) too.
  for (const el of document.body.querySelectorAll("*")) {
    for (const pseudo of ["::before", "::after"]) {
      const style = getComputedStyle(el, pseudo);
      const content = style.content;
      if (!content || content === "none" || content === "normal" || !content.startsWith('"')) continue;
      const font = `${style.fontStyle} ${style.fontWeight} 32px ${style.fontFamily}`;
      for (const ch of JSON.parse(content)) {
        if (ch.charCodeAt(0) < 128 || /\s/.test(ch)) continue;
        if (!fonts.has(font)) fonts.set(font, new Set());
        fonts.get(font).add(ch);
      }
    }
  }
  out.tofu = [];
  for (const [font, chars] of fonts) {
    const none = draw("\u{10FFFD}", font);
    for (const ch of chars) if (draw(ch, font) === none) out.tofu.push(`${ch} (U+${ch.codePointAt(0).toString(16).toUpperCase()}) in ${font}`);
  }
  // 4. No word broken inside ("Diamo/nds"): a word's letters all sit on one line.
  out.broken = [];
  const words = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  while (words.nextNode() && out.broken.length < 5) {
    const node = words.currentNode, el = node.parentElement;
    if (!el || el.closest("script,style,svg,[hidden],textarea,input,select,.code-url")) continue; // an address is no word
    for (const m of node.textContent.matchAll(/[\p{L}\p{N}]{4,}/gu)) {
      range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (tops.size > 1) { out.broken.push(`"${m[0]}" broken across lines`); break; }
    }
  }
  out.text = texts;
  return out;
})()
