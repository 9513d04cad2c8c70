/**
 * What the watch page's player needs before its own script runs (components/watch/adaptive-player.tsx).
 */

/** What the player needs of MSE to play the ladder (H.264 Main and AAC-LC in fragmented MP4). */
export const MSE_TYPE = 'video/mp4; codecs="avc1.4d401e,mp4a.40.2"';

/** How long a play held before the page's scripts waits for them before the browser plays on its own. */
export const HOLD_MS = 12_000;

/**
 * An inline script just before the rendered `<video>`, run as the page arrives: where the browser
 * has MSE (so the player will play), a play pressed before the page's own scripts have run is held
 * instead of started by the browser's own HLS, which would spend the link on the film (a byte-range
 * rung from its first byte to its last; through a CDN the whole file before the first frame) while
 * the scripts are still coming, and keep no limit on what it fetches ahead. It listens on the
 * document (a press may come before the rest of the player has arrived); the sources lose their
 * addresses (those that arrive later too) and the element waits, still playing in name; the player
 * takes the press over once it runs (it finds the element playing). Should the scripts never come, the
 * browser plays after HOLD_MS. React leaves attributes as they are when it hydrates, and the player
 * removes the sources anyway.
 *
 * The page's CSP allows it by its hash (utils/security-headers.server.ts), not the request's nonce:
 * reading the nonce here would make the nonce's module a chunk of its own that every page fetches.
 */
export const HOLD_EARLY_PLAY = `(function(){if(!window.MediaSource||!MediaSource.isTypeSupported||!MediaSource.isTypeSupported(${JSON.stringify(
  MSE_TYPE,
)}))return;function hold(e){var v=e.target;if(!v||v.tagName!=="VIDEO"||v.dataset.playerMode!=="none")return;document.removeEventListener("play",hold,true);v.dataset.playRequested="1";v.dataset.playHeld="1";var kept=[];function strip(){var s=v.querySelectorAll("source[src]"),i;for(i=0;i<s.length;i++){kept.push([s[i],s[i].getAttribute("src")]);s[i].removeAttribute("src")}}strip();var later=new MutationObserver(strip);later.observe(v,{childList:true});v.load();v.play().catch(function(){});setTimeout(function(){later.disconnect();if(v.dataset.playerMode!=="none")return;for(var i=0;i<kept.length;i++)kept[i][0].setAttribute("src",kept[i][1]);delete v.dataset.playHeld;v.load();v.play().catch(function(){})},${HOLD_MS})}document.addEventListener("play",hold,true)})()`;
