// Every page registers the service worker (the server's /sw.js) that keeps the pages and their
// files for a phone with no network; where browsers have none, the pages work as before.
// It is registered once the page has loaded, so its downloads never slow the page's own.

const worker = new URL("../sw.js", import.meta.url);

function register() {
  navigator.serviceWorker.register(worker, { scope: new URL("./", worker).pathname }).catch(() => {
    // Refused (a private window, an origin that is not secure): the pages need the network.
  });
}

if ("serviceWorker" in navigator) {
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
