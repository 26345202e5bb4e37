/** The team's PDF of an invoice (or of its receipt) shown inline: by id with the team file key of GET /users/me. */
export const teamPdfUrl = (invoiceId: string, fileKey: string, type: "invoice" | "receipt" = "invoice") =>
  `/files/download/invoice?${new URLSearchParams({ id: invoiceId, fk: fileKey, preview: "true", type })}`

/** The invoice's public link: its PDF by the public token, for anyone the team shares it with. */
export const publicPdfUrl = (token: string) =>
  `${location.origin}/files/download/invoice?${new URLSearchParams({ token, preview: "true" })}`
