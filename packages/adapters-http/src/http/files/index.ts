export * from "./FilesHttp.ts"
