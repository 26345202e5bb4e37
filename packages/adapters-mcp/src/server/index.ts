export * from "./Http.ts"
export * from "./SpendToolkit.ts"
export * from "./Stdio.ts"
