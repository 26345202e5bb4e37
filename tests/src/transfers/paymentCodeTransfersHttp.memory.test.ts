import { PortsMemory } from "@svc/adapters-memory"
import { paymentCodeTransfersHttpSuite } from "./PaymentCodeTransfersHttpSuite.ts"

paymentCodeTransfersHttpSuite("memory", PortsMemory)
