// The blank sheet's print button (the browser's own print command does the same).
document.getElementById("print-sheet")?.addEventListener("click", () => window.print());
