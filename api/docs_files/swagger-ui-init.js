// Starts Swagger UI with the settings the page carries as JSON (api/templates/swagger_ui.html):
// a file, not an inline script, so that the Content-Security-Policy needs no 'unsafe-inline'.
window.addEventListener("load", () => {
  const config = JSON.parse(document.getElementById("swagger-ui-config").textContent);
  window.ui = SwaggerUIBundle(config);
});
