/** The port the service listens on unless `PORT` says otherwise. */
export const DEFAULT_PORT = 3000

/** The service on this machine at `port`: the server's public URL unless configured, and its clients' default. */
export const localServiceUrl = (port: number = DEFAULT_PORT): string => `http://localhost:${port}`
