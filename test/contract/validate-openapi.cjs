// Validates an OpenAPI file with swagger-parser in plain Node (Jest cannot load its ES-module deps); prints "valid" or the error.
const SwaggerParser = require("@apidevtools/swagger-parser");

SwaggerParser.validate(process.argv[2]).then(
  () => {
    process.stdout.write("valid");
  },
  (err) => {
    process.stdout.write(`invalid: ${err.message}`);
    process.exitCode = 1;
  },
);
