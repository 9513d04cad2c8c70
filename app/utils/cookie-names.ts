/** The session cookie's name: the auth layer sets it; the cache policy reads whether a request carries it. */
export const SESSION_COOKIE_NAME = "kallo_session";
