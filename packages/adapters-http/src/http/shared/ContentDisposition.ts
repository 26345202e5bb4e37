/** Characters RFC 5987 lets through unencoded (`attr-char`). */
const ATTR_CHAR = /[A-Za-z0-9!#$&+\-.^_`|~]/u

/**
 * `Content-Disposition` (`attachment` to download, `inline` to show) naming `filename` (RFC 6266): an ASCII fallback in `filename` (other characters,
 * quotes and backslashes as `_`) and, when the name is not plain ASCII, the exact name in `filename*` (RFC 5987).
 */
export const contentDisposition = (type: "attachment" | "inline", filename: string): string => {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/gu, "_")
  if (fallback === filename) return `${type}; filename="${filename}"`
  const encoded = [...new TextEncoder().encode(filename)]
    .map((byte) => {
      const char = String.fromCharCode(byte)
      return byte < 0x80 && ATTR_CHAR.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`
    })
    .join("")
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`
}
