/** Lifetimes (seconds) of codes and tokens. */
export const CODE_TTL_SECONDS = 5 * 60
export const ACCESS_TOKEN_TTL_SECONDS = 2 * 60 * 60
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60

/** Raw value prefixes of OAuth credentials. */
export const CLIENT_ID_PREFIX = "mid_client_"
export const CLIENT_SECRET_PREFIX = "mid_client_secret_"
export const CODE_PREFIX = "mid_code_"
export const ACCESS_TOKEN_PREFIX = "mid_access_token_"
export const REFRESH_TOKEN_PREFIX = "mid_refresh_token_"
