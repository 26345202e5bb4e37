import { PortsMemory } from "@svc/adapters-memory"
import { backlogCountsContract } from "./BacklogCountsContract.ts"

backlogCountsContract("in-memory", PortsMemory)
