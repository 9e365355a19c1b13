// The pages' colours: as the device says (light or dark), or as chosen with the switch in the
// header, which this device remembers. Loaded in the head, before anything is drawn (not as a
// module, which would run after the first paint), so a dark page never flashes white.
// The dark colours are their own stylesheet (dark.css), linked for a screen whose device
// prefers dark; a choice of light or dark sets where that stylesheet applies.
(() => {
  const KEY = "rummy-referee:colours";
  const WHERE = {
    system: "screen and (prefers-color-scheme: dark)",
    light: "not all",
    dark: "screen",
  };

  function chosen() {
    try {
      const value = localStorage.getItem(KEY);
      return value in WHERE ? value : "system";
    } catch (error) {
      return "system"; // storage refused (a private window): the device decides
    }
  }

  function apply(choice) {
    const dark = document.getElementById("dark-colours");
    if (dark) dark.media = WHERE[choice];
    document.documentElement.dataset.colours = choice;
    // The bar a phone draws around the page follows the page's colours.
    for (const meta of document.querySelectorAll('meta[name="theme-color"]')) {
      const forDark = meta.dataset.colours === "dark";
      if (choice === "system") meta.media = `(prefers-color-scheme: ${forDark ? "dark" : "light"})`;
      else meta.media = (choice === "dark") === forDark ? "all" : "not all";
    }
  }

  apply(chosen());

  document.addEventListener("DOMContentLoaded", () => {
    const control = document.getElementById("colours");
    if (!control) return;
    control.value = chosen();
    control.closest("[hidden]")?.removeAttribute("hidden");
    control.addEventListener("change", () => {
      try {
        localStorage.setItem(KEY, control.value);
      } catch (error) {
        // not remembered, but still applied to this page
      }
      apply(control.value);
    });
  });
})();
