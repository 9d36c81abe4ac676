// Which paths belong to the API: the console's catch-all route never answers them with its page, and the
// rate limit counts them even when that route is the one matched.
export const API_PATH = /^\/(v\d+\/|v\d+$|docs(\/|$)|openapi\.json$|healthz$)/;
