import { FileStorageMemory } from "@svc/adapters-memory"
import { fileStorageContract } from "./FileStorageContract.ts"

fileStorageContract("memory", FileStorageMemory)
