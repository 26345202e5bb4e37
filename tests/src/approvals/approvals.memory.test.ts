import { PortsMemory } from "@svc/adapters-memory"
import { approvalsContract } from "./ApprovalsContract.ts"

approvalsContract("in-memory", PortsMemory)
