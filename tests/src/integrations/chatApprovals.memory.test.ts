import { PortsMemory } from "@svc/adapters-memory"
import { chatApprovalsContract } from "./ChatApprovalsContract.ts"

chatApprovalsContract("memory", PortsMemory)
