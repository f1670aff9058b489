// The entry for a page the server rendered whole (the landing page, the guest's payment pages; apps/api web-shell
// `bootAfterPaint`): the markup is already on screen, so the scripts start after the first frame is painted instead
// of competing with it (a phone spends up to a second evaluating them). The server names the entry in `data-entry`.
const entry = document.querySelector('script[data-entry]')?.getAttribute('data-entry');
if (entry) {
  // A hash route (`/#/lv/faq`, old links) is another page than the one the server rendered for `/`: not shown.
  if (/^#\/./.test(window.location.hash)) {
    document.getElementById('root')?.replaceChildren();
    void import(entry);
  } else {
    requestAnimationFrame(() => setTimeout(() => import(entry)));
  }
}
