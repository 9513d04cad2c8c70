/** The name of the hidden field people leave empty and form-filling robots do not. */
export const HONEYPOT_FIELD = "website";
