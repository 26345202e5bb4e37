/** The reports context's shapes and pure maths: no services, so clients may import them. */
export * from "./Report.ts"
export * from "./ReportErrors.ts"
export * from "./ReportMaths.ts"
