"""The texts of an HTTP error that are not the API's own: each status's title, and werkzeug's
details for the errors it raises with its default description (a URL that names nothing, a
method the path does not take).

Each is a message id of the catalogs, written in the reader's language by :mod:`api.errors`.
"""

from __future__ import annotations

from rules.i18n import N_

#: The title of each status a problem document has (its reason phrase).
TITLES = {
    400: N_("Bad Request"),
    401: N_("Unauthorized"),
    403: N_("Forbidden"),
    404: N_("Not Found"),
    405: N_("Method Not Allowed"),
    406: N_("Not Acceptable"),
    409: N_("Conflict"),
    412: N_("Precondition Failed"),
    413: N_("Request Entity Too Large"),
    414: N_("URI Too Long"),
    415: N_("Unsupported Media Type"),
    422: N_("Unprocessable Entity"),
    428: N_("Precondition Required"),
    429: N_("Too Many Requests"),
    431: N_("Request Header Fields Too Large"),
    500: N_("Internal Server Error"),
    501: N_("Not Implemented"),
    503: N_("Service Unavailable"),
}

#: werkzeug's own details, by status, for an error raised without one of the API's.
HTTP_DETAILS = {
    400: N_("The browser (or proxy) sent a request that this server could not understand."),
    404: N_(
        "The requested URL was not found on the server. If you entered the URL manually please"
        " check your spelling and try again."
    ),
    405: N_("The method is not allowed for the requested URL."),
    415: N_("The server does not support the media type transmitted in the request."),
}

__all__ = ["HTTP_DETAILS", "TITLES"]
