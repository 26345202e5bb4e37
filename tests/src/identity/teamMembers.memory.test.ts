import { PortsMemory } from "@svc/adapters-memory"
import { teamMembersContract } from "./TeamMembersContract.ts"

teamMembersContract("in-memory", PortsMemory)
