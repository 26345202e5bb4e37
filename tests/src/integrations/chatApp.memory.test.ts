import { PortsMemory } from "@svc/adapters-memory"
import { chatAppContract } from "./ChatAppContract.ts"

chatAppContract("in-memory", PortsMemory)
