export * as EvmRail from "./EvmRail.ts"
