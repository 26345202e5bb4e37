/** The customers context's shapes: no services, so clients may import them. */
export * from "./Customer.ts"
