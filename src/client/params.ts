// The shape of request parameters after validation (src/client/validate.ts cleans them; the cache
// keys, the transport and the domain read them).

/** A parameter value ready to be sent. */
export type ParamValue = string | number;
/** Cleaned parameters: blank ones dropped, strings trimmed, integers as numbers. */
export type CleanParams = Record<string, ParamValue>;
