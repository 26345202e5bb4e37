export * from "./FilesApi.ts"
