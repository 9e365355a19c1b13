// While a sheet is open and in view, the phone's screen stays on: the table looks at it between
// deals, and a phone that locks itself has to be unlocked each round. The browser lets a lock
// go whenever the page is hidden, so it is asked for again each time the page is shown. Where
// the browser has no Screen Wake Lock API, or refuses (a low battery), nothing happens.

let lock = null;

async function keepAwake() {
  if (!("wakeLock" in navigator) || document.visibilityState !== "visible" || (lock && !lock.released)) return;
  try {
    lock = await navigator.wakeLock.request("screen");
  } catch (error) {
    lock = null; // refused: the screen sleeps as the phone is set to
  }
}

document.addEventListener("visibilitychange", keepAwake);
keepAwake();
