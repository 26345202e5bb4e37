/** Standard base64 (with padding) of a text's UTF-8 bytes, as x402 encodes its headers. */
export const base64OfText = (text: string): string =>
  btoa(Array.from(new TextEncoder().encode(text), (b) => String.fromCharCode(b)).join(""))

/** The UTF-8 text standard base64 stands for; undefined when it is not base64 or not UTF-8. */
export const textOfBase64 = (input: string): string | undefined => {
  if (!/^[A-Za-z0-9+/]+={0,2}$/u.test(input.trim())) return undefined
  try {
    const bytes = Uint8Array.from(atob(input.trim()), (c) => c.charCodeAt(0))
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes)
  } catch {
    return undefined
  }
}
