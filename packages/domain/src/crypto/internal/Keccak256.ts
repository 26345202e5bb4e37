const MASK = (1n << 64n) - 1n

/** The 24 round constants of Keccak-f[1600]. */
const ROUND_CONSTANTS = [
  0x0000000000000001n,
  0x0000000000008082n,
  0x800000000000808an,
  0x8000000080008000n,
  0x000000000000808bn,
  0x0000000080000001n,
  0x8000000080008081n,
  0x8000000000008009n,
  0x000000000000008an,
  0x0000000000000088n,
  0x0000000080008009n,
  0x000000008000000an,
  0x000000008000808bn,
  0x800000000000008bn,
  0x8000000000008089n,
  0x8000000000008003n,
  0x8000000000008002n,
  0x8000000000000080n,
  0x000000000000800an,
  0x800000008000000an,
  0x8000000080008081n,
  0x8000000000008080n,
  0x0000000080000001n,
  0x8000000080008008n
]

/** The rotation of lane (x, y), at index x + 5y. */
const ROTATIONS = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14]

/** The Keccak-256 rate in bytes: 1600 - 2 * 256 bits. */
const RATE = 136

const rotl = (lane: bigint, by: number): bigint =>
  by === 0 ? lane : ((lane << BigInt(by)) | (lane >> BigInt(64 - by))) & MASK

const permute = (state: Array<bigint>): void => {
  const c = new Array<bigint>(5)
  const b = new Array<bigint>(25)
  for (const rc of ROUND_CONSTANTS) {
    for (let x = 0; x < 5; x++) c[x] = state[x]! ^ state[x + 5]! ^ state[x + 10]! ^ state[x + 15]! ^ state[x + 20]!
    for (let x = 0; x < 5; x++) {
      const d = c[(x + 4) % 5]! ^ rotl(c[(x + 1) % 5]!, 1)
      for (let y = 0; y < 25; y += 5) state[x + y] = state[x + y]! ^ d
    }
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++) b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(state[x + 5 * y]!, ROTATIONS[x + 5 * y]!)
    }
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x++) {
        state[x + y] = b[x + y]! ^ (~b[((x + 1) % 5) + y]! & MASK & b[((x + 2) % 5) + y]!)
      }
    }
    state[0] = state[0]! ^ rc
  }
}

/**
 * Keccak-256 as Ethereum uses it (the original Keccak padding `0x01 ... 0x80`, not SHA3-256's `0x06`), written here
 * because the domain depends on `effect` alone. Lanes are little-endian 64-bit words held as bigints.
 */
export const keccak256 = (input: Uint8Array): Uint8Array => {
  const padded = new Uint8Array((Math.floor(input.length / RATE) + 1) * RATE)
  padded.set(input)
  padded[input.length] = padded[input.length]! ^ 0x01
  padded[padded.length - 1] = padded[padded.length - 1]! ^ 0x80
  const state = new Array<bigint>(25).fill(0n)
  for (let offset = 0; offset < padded.length; offset += RATE) {
    for (let lane = 0; lane < RATE / 8; lane++) {
      let word = 0n
      for (let byte = 7; byte >= 0; byte--) word = (word << 8n) | BigInt(padded[offset + lane * 8 + byte]!)
      state[lane] = state[lane]! ^ word
    }
    permute(state)
  }
  const out = new Uint8Array(32)
  for (let i = 0; i < 32; i++) out[i] = Number((state[Math.floor(i / 8)]! >> BigInt((i % 8) * 8)) & 0xffn)
  return out
}
