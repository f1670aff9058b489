/**
 * The cookie banner floats over the bottom of the page: room as tall as the banner below the page keeps the last
 * buttons and links reachable. It is added after the footer, so nothing on screen moves. Kept in step with the
 * banner's height until the returned function stops it (the room itself stays: whoever removes the banner frees it).
 * Used by the app's banner and by the landing page's script on the server's (decision 0065).
 */
export function reserveRoomBelowPage(banner: HTMLElement): () => void {
  const reserve = () => void (document.body.style.paddingBottom = `${banner.offsetHeight}px`);
  reserve();
  const observer = new ResizeObserver(reserve);
  observer.observe(banner);
  return () => observer.disconnect();
}
